// Every visible string of the elements goes through here: one merge of the English defaults with the
// viewer's language and the element's `strings` property, and the viewer's message for each stable
// error code (never the relay's English sentence). Placeholders are filled by `format()` (intl.ts).
import type { ReactiveController, ReactiveElement } from 'lit';
import type { ErrorCode } from '../../core/errors.js';
import type { Translation } from '../locales/translation.js';
import { lazyChunk } from './chunk.js';
import { langOf, pickLocale, type Locale } from './locale.js';

export { LOCALES, langOf, pickLocale, type Locale } from './locale.js';

/** What the viewer reads for each error code (the technical message goes to `svc-error` and the console). */
export const errorStrings: Record<ErrorCode, string> = {
  validation_failed: 'Some values are not valid.',
  unauthorized: 'You are not signed in, or your session has expired. Sign in again.',
  forbidden: 'You are not allowed to do this.',
  not_found: 'It does not exist, or it is not yours.',
  conflict: 'Someone else changed it in the meantime.',
  payload_too_large: 'It is larger than the service accepts.',
  unsupported_media_type: 'This type of file is not accepted.',
  rate_limited: 'Too many requests. Wait a moment and try again.',
  upstream_unavailable: 'The video service is not available right now. Try again later.',
  upstream_timeout: 'The video service took too long to answer. Try again.',
  upstream_rejected: 'The video service refused the request.',
  upstream_credentials: "This site's connection to the video service is not set up correctly.",
  internal: 'Something went wrong.',
  network_error: 'The connection failed. Check your connection and try again.',
  relay_unreachable: 'The server cannot be reached. Try again later.',
  origin_not_allowed: 'This page is not allowed to use the server.',
  origin_not_trusted: 'This page does not allow this video source.',
  aborted: 'Cancelled.',
  embed_rejected: 'The player was refused because its code is not safe.',
  upload_failed: 'The upload failed.',
  upload_rejected: 'The upload address refused the file.',
  signature_expired: 'The permission to upload expired.',
  file_rejected: 'This file cannot be uploaded.',
  type_required: 'Choose a type for every item.',
};
export type SvcErrorStrings = typeof errorStrings;

/** The `strings` property of an element: any of its strings, and any error message under `errors`. */
export type StringsOverride<S> = Partial<S> & { errors?: Partial<SvcErrorStrings> };

/** `lang` as Intl takes it; undefined when it is not a well-formed language tag. */
function canonical(lang: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(lang)[0];
  } catch {
    return undefined;
  }
}

/** Each locale's module, loaded once, on first use (a failed download is tried again at the next). */
const translations: Record<Exclude<Locale, 'en'>, () => Promise<{ default: Translation }>> = {
  fr: lazyChunk(() => import('../locales/fr.js')),
  de: lazyChunk(() => import('../locales/de.js')),
  es: lazyChunk(() => import('../locales/es.js')),
  'pt-BR': lazyChunk(() => import('../locales/pt-BR.js')),
  ja: lazyChunk(() => import('../locales/ja.js')),
  ar: lazyChunk(() => import('../locales/ar.js')),
};

/** The translation of `locale`, loaded once per page. */
export const loadTranslation = (locale: Exclude<Locale, 'en'>): Promise<Translation> => translations[locale]().then((module) => module.default);

/** Every connected controller; one observer tells them when a `lang` or `dir` changes anywhere. */
const live = new Set<Localized<object>>();
let observer: MutationObserver | undefined;

function watch(controller: Localized<object>): void {
  live.add(controller);
  observer ??= new MutationObserver(() => live.forEach((each) => each.resolve()));
  if (live.size === 1) observer.observe(document.documentElement, { attributes: true, attributeFilter: ['lang', 'dir'], subtree: true });
}

function unwatch(controller: Localized<object>): void {
  live.delete(controller);
  if (!live.size) observer?.disconnect();
}

type Host<S> = ReactiveElement & { strings?: StringsOverride<S> };

/**
 * The strings of one element in the viewer's language, as a reactive controller: the locale comes
 * from the nearest `lang` attribute (re-read when any changes), its module is loaded on first use
 * (English meanwhile, and if it fails to load), and the element's `strings` property overrides any
 * string. `locale` is the tag to give `Intl` formatters.
 */
export class Localized<S extends object> implements ReactiveController {
  /** The locale whose strings are in use. */
  current: Locale = 'en';
  /** The language tag for `Intl` (the page's own, e.g. `fr-CA`, when its strings are shipped). */
  locale = 'en';
  #translation?: Translation;
  #memo?: { translation?: Translation; given: unknown; strings: S };
  #dir?: string;
  readonly #host: Host<S>;
  readonly #tag: keyof Translation & string;
  #defaults: S;

  constructor(host: Host<S>, tag: keyof Translation & string, defaults: S) {
    this.#host = host;
    this.#tag = tag;
    this.#defaults = defaults;
    host.addController(this);
  }

  hostConnected(): void {
    watch(this);
    this.resolve();
  }

  hostDisconnected(): void {
    unwatch(this);
  }

  /** Re-reads the language and loads its strings when they changed. */
  resolve(): void {
    const tag = canonical(langOf(this.#host));
    const wanted = tag ? pickLocale(tag) : 'en';
    const locale = wanted !== 'en' || tag?.toLowerCase().startsWith('en') ? tag! : 'en';
    const dir = this.dir;
    if (wanted === this.current && locale === this.locale) {
      if (dir !== this.#dir) this.#host.requestUpdate(); // only a `dir` changed
      this.#dir = dir;
      return;
    }
    const apply = (translation?: Translation) => {
      this.current = wanted;
      this.locale = locale; // with the strings, so Intl output and text are in one language
      this.#translation = translation;
      this.#dir = this.dir;
      this.#host.requestUpdate();
    };
    if (wanted === 'en') return apply();
    loadTranslation(wanted).then(
      (translation) => {
        if (canonical(langOf(this.#host)) !== tag) return; // changed again meanwhile
        apply(translation);
      },
      (error: unknown) => console.warn(`svc-elements: the "${wanted}" strings could not be loaded; English is shown.`, error),
    );
  }

  /** `rtl` for a right-to-left language unless a `dir` attribute up the tree says otherwise. */
  get dir(): 'rtl' | 'ltr' | 'auto' {
    for (let at: Node | null = this.#host; at; at = at.parentNode ?? (at as ShadowRoot).host ?? null) {
      const dir = at instanceof Element ? at.getAttribute('dir')?.toLowerCase() : undefined;
      if (dir === 'rtl' || dir === 'ltr' || dir === 'auto') return dir;
    }
    return this.current === 'ar' ? 'rtl' : 'ltr';
  }

  /**
   * Adds English defaults that came with a part loaded later (the editor's editing view, the
   * uploader's list, the channel setup's panel): the strings are still merged in one place, here.
   */
  extend(defaults: Partial<S>): void {
    if (Object.keys(defaults).every((key) => key in this.#defaults)) return;
    this.#defaults = { ...this.#defaults, ...defaults };
    this.#memo = undefined;
    this.#host.requestUpdate();
  }

  /** The element's strings: English defaults, then the viewer's language, then the `strings` property. */
  get strings(): S {
    // The same object while neither the language nor the `strings` property changed, so a view can
    // tell by identity that its words did not change (the uploader's rows are kept by it).
    const given = this.#host.strings;
    const memo = this.#memo;
    if (memo && memo.translation === this.#translation && memo.given === given) return memo.strings;
    const own = this.#translation?.[this.#tag] as Partial<S> | undefined;
    const { errors: _, ...overrides } = given ?? {};
    const strings = { ...this.#defaults, ...own, ...(overrides as Partial<S>) };
    this.#memo = { translation: this.#translation, given, strings };
    return strings;
  }

  /** What the viewer reads for an error code, in their language. */
  error(code: string): string {
    const key = (Object.hasOwn(errorStrings, code) ? code : 'internal') as ErrorCode;
    return this.#host.strings?.errors?.[key] ?? this.#translation?.errors[key] ?? errorStrings[key];
  }
}
