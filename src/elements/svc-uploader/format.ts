// Sizes, speeds and durations in the page's language (Intl), for the upload rows.

const BYTE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/** `1.4 MB`, `820 kB`, `12 byte`: decimal units, one fraction digit from kilobytes up. */
export function formatBytes(bytes: number, locale?: string): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: BYTE_UNITS[unit],
    unitDisplay: 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(value);
}

/** `45 sec`, `3 min 5 sec`, `1 hr 2 min`. */
export function formatDuration(seconds: number, locale?: string): string {
  const unit = (value: number, name: 'hour' | 'minute' | 'second') =>
    new Intl.NumberFormat(locale, { style: 'unit', unit: name, unitDisplay: 'short' }).format(value);
  const total = Math.max(0, Math.round(seconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total % 60;
  if (hours) return `${unit(hours, 'hour')} ${unit(minutes, 'minute')}`;
  if (minutes) return `${unit(minutes, 'minute')} ${unit(rest, 'second')}`;
  return unit(rest, 'second');
}
