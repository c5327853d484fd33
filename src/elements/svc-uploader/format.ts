// Sizes and accepted types in the page's language (Intl), for the hint and the upload rows.
import { numberFormat } from '../shared/intl.js';

/** IEC binary units, as the limits are documented (5 GiB = 5 × 1024³ bytes); symbols are the same in every language. */
const BINARY_UNITS = ['KiB', 'MiB', 'GiB', 'TiB'] as const;

/**
 * `1,000 bytes`, `1 byte`, `820 KiB`, `1.4 MiB`, `5 GiB`: binary units, one fraction digit from
 * kibibytes up; below 1 KiB the page's language names (and pluralises) the bytes.
 */
export function formatBytes(bytes: number, locale?: string): string {
  let value = Math.max(0, bytes);
  if (value < 1024) {
    return numberFormat(locale, { style: 'unit', unit: 'byte', unitDisplay: 'long', maximumFractionDigits: 0 }).format(value);
  }
  let unit = -1;
  while (value >= 1024 && unit < BINARY_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${numberFormat(locale, { maximumFractionDigits: 1 }).format(value)} ${BINARY_UNITS[unit]}`;
}

/**
 * An `accept` list in words: `video/*` as `anyVideo`, `video/mp4` or `.mp4` as `MP4`,
 * `video/quicktime` as `MOV`, `video/x-matroska` as `MKV`.
 */
export function describeAccept(accept: string, anyVideo: string, locale?: string): string {
  const names = accept
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .filter(Boolean)
    .map((token) => {
      if (token === 'video/*') return anyVideo;
      if (token.startsWith('.')) return token.slice(1).toUpperCase();
      const subtype = token.split('/')[1] ?? token;
      return ({ quicktime: 'MOV', 'x-matroska': 'MKV', 'x-msvideo': 'AVI', mp2t: 'MPEG-TS', '*': token } as Record<string, string>)[subtype] ??
        subtype.replace(/^x-/, '').toUpperCase();
    });
  return new Intl.ListFormat(locale, { type: 'unit' }).format([...new Set(names)]);
}
