// Intl formatters made once per language and options: making one costs far more than formatting
// with it (a list of hundreds of rows formats thousands of numbers).

const numberFormats = new Map<string, Intl.NumberFormat>();

/** `new Intl.NumberFormat(locale, options)`, shared by every caller that asks for the same. */
export function numberFormat(locale: string | undefined, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale ?? ''}\u0000${options ? JSON.stringify(options) : ''}`;
  let formatter = numberFormats.get(key);
  if (!formatter) numberFormats.set(key, (formatter = new Intl.NumberFormat(locale, options)));
  return formatter;
}
