// Which shipped language an element speaks: the languages, the page's `lang` as the platform
// resolves it, and the locale chosen for it; and the two strings of a click-to-load player's play
// button in each, which the script-tag loader's button (loader-preview.ts) takes before any click
// rather than the whole translation.
import type { SvcPlayerStrings } from '../svc-player/strings.js';
import { lazyChunk } from './chunk.js';

/** The languages shipped, as BCP 47 tags; English is built in, the others load when used. */
export const LOCALES = ['en', 'fr', 'de', 'es', 'pt-BR', 'ja', 'ar'] as const;
export type Locale = (typeof LOCALES)[number];

/**
 * The language of `node` as the platform resolves it: the `lang` attribute of the nearest element
 * up the tree, crossing shadow roots to their hosts; '' when none says.
 */
export function langOf(node: Node | null): string {
  for (let at = node; at; at = at.parentNode ?? (at as ShadowRoot).host ?? null) {
    if (at instanceof Element && at.hasAttribute('lang')) return at.getAttribute('lang')!.trim();
  }
  return '';
}

/** The shipped locale for a language tag: `fr-CA` → `fr`, `pt` or `pt-PT` → `pt-BR`; else `en`. */
export function pickLocale(lang: string): Locale {
  const tag = lang.toLowerCase();
  const primary = tag.split('-')[0];
  return LOCALES.find((locale) => locale.toLowerCase() === tag) ?? LOCALES.find((locale) => locale.slice(0, 2) === primary) ?? 'en';
}

/** The strings of a click-to-load player's play button. */
export type PlayButtonStrings = Pick<SvcPlayerStrings, 'play' | 'playTitle'>;

/** Each locale's play button (locales/play-<locale>.ts, which its whole translation also spreads). */
const playButtons: Record<Exclude<Locale, 'en'>, () => Promise<{ default: PlayButtonStrings }>> = {
  fr: lazyChunk(() => import('../locales/play-fr.js')),
  de: lazyChunk(() => import('../locales/play-de.js')),
  es: lazyChunk(() => import('../locales/play-es.js')),
  'pt-BR': lazyChunk(() => import('../locales/play-pt-BR.js')),
  ja: lazyChunk(() => import('../locales/play-ja.js')),
  ar: lazyChunk(() => import('../locales/play-ar.js')),
};

/** The play button's strings in `locale`. */
export const loadPlayButton = (locale: Exclude<Locale, 'en'>): Promise<PlayButtonStrings> => playButtons[locale]().then((module) => module.default);
