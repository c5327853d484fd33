// A tiny HTML entity decoder for showing an embed code as text. Only <svc-player> loads `he`
// (ARCHITECTURE.md); here the result is only ever assigned to a textarea's value, never parsed as
// markup, so decoding the entities the service emits (and any numeric one) is all that is needed.

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

/** Decodes `&name;`, `&#123;` and `&#x7b;` references once; unknown or invalid ones stay as written. */
export function decodeEntities(text: string): string {
  return text.replace(/&(?:#(\d+)|#[xX]([0-9a-fA-F]+)|([a-zA-Z]+));/g, (match, dec, hex, name) => {
    if (name !== undefined) return Object.hasOwn(NAMED, name) ? NAMED[name]! : match;
    const codePoint = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex, 16);
    if (codePoint === 0 || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return match;
    return String.fromCodePoint(codePoint);
  });
}
