// Text in the viewer's language: the one `format()` of the elements, and Intl formatters made once
// per language and options (making one costs far more than formatting with it: a list of hundreds
// of rows formats thousands of numbers). Apart from strings.ts, which the player's chunks need
// without these: a bundler then keeps them with the parts that use them (bench: all four elements).

const numberFormats = new Map<string, Intl.NumberFormat>();

/** `new Intl.NumberFormat(locale, options)`, shared by every caller that asks for the same. */
export function numberFormat(locale: string | undefined, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale ?? ''}\u0000${options ? JSON.stringify(options) : ''}`;
  let formatter = numberFormats.get(key);
  if (!formatter) numberFormats.set(key, (formatter = new Intl.NumberFormat(locale, options)));
  return formatter;
}

/**
 * Fills `{name}` placeholders (unknown names stay as written); numbers are written in `locale`
 * (`1.234` in German, Arabic-Indic digits in Arabic).
 */
export function format(template: string, values: Record<string, string | number>, locale?: string): string {
  return template.replace(/\{(\w+)\}/g, (match, name: string) => {
    if (!Object.hasOwn(values, name)) return match;
    const value = values[name]!;
    return typeof value === 'number' ? numberFormat(locale).format(value) : value;
  });
}
