// The one HTML entity decoder of the elements: `he` (complete, as a browser decodes, with no DOM
// sink, so it works under Trusted Types and in Node). It is large: only code loaded with `import()`
// imports this module (the channel panel), or imports it with `import()` itself, never an
// element's first download.
import he from 'he';

/** `text` with its character references decoded once, as the HTML parser would. */
export function decodeEntities(text: string): string {
  return he.decode(text);
}
