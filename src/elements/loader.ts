// The script-tag entry: what the relay serves at `<base path>/elements.js` (dist/cdn/elements.js).
// A few hundred bytes that register each svc-* tag the first time it appears in the document (or
// is added later) and import that element's code only then. Every other file of dist/cdn/ is
// content-hashed and imported relative to this module's own URL, so the same folder works from the
// relay, from any static host or from a CDN (with `<meta name="svc-relay">` in the head).
//
// A `<svc-player loading="click">` does not need Lit before the click: while every player on the
// page waits for a click, the loader imports only the play button (loader-preview.ts, plain DOM) and
// the player's code when the viewer points at one, focuses it or clicks it. Until then the element
// has stand-ins of `play()` and `pause()` (a `play()` downloads the player, as a click does). One
// inside media-chrome (`slot="media"`, or in a `<media-controller>`) is defined at once: the
// controller waits for its media element to be defined.
//
// Elements inside other components' shadow roots are not seen by the document's observer: call
// `discover(shadowRoot)` once for each such root (a component built with a bundler may import the
// element's define module from the package instead).

const TAGS = ['svc-player', 'svc-uploader', 'svc-playlist-editor', 'svc-channel-setup'] as const;
type Tag = (typeof TAGS)[number];
const SELECTOR = TAGS.join();

const modules: Record<Tag, () => Promise<unknown>> = {
  // The player's class is in the file every element's code imports (vite.config.ts SHARED_FILES):
  // registered here, so that another element's page does not register it.
  'svc-player': () => import('./svc-player/svc-player.js').then(({ SvcPlayer }) => SvcPlayer.define()),
  'svc-uploader': () => import('./svc-uploader/define.js'),
  'svc-playlist-editor': () => import('./svc-playlist-editor/define.js'),
  'svc-channel-setup': () => import('./svc-channel-setup/define.js'),
};

/** The imports under way or done, per tag; a failed one is forgotten, so the next sighting tries again. */
const loading = new Map<string, Promise<unknown>>();

function define(tag: Tag): Promise<unknown> {
  let promise = loading.get(tag);
  if (!promise) {
    promise = modules[tag]().catch((error: unknown) => {
      loading.delete(tag);
      console.warn(`svc-elements: the code of <${tag}> could not be downloaded.`, error);
    });
    loading.set(tag, promise);
  }
  return promise;
}

let preview: Promise<typeof import('./loader-preview.js') | void> | undefined;

function found(element: Element): void {
  const tag = element.localName as Tag;
  if (!TAGS.includes(tag) || loading.has(tag) || customElements.get(tag)) return;
  // media-chrome's <media-controller> waits for its media element to be defined: no preview there.
  if (tag === 'svc-player' && element.getAttribute('loading') === 'click' && !element.closest('media-controller,[slot=media]')) {
    standIns(element as Waiting);
    // The play button alone until the viewer wants the video (or another player needs the code).
    preview ??= import('./loader-preview.js').catch((error: unknown) => {
      preview = undefined;
      console.warn('svc-elements: the play button could not be downloaded.', error);
    });
    void preview.then((module) => module?.preview(element as HTMLElement, () => define('svc-player')));
  } else void define(tag);
}

type Waiting = HTMLElement & { play?: () => Promise<void>; pause?: () => void };

/**
 * `play()` and `pause()` on a click-to-load player before its code is there (as a media element
 * has them): `play()` downloads the player, as a click does, then calls the element's own;
 * `pause()` cancels a `play()` still waiting (it rejects with an AbortError).
 */
function standIns(player: Waiting): void {
  if (player.play) return;
  /** The rejections of the `play()` calls still waiting for the code. */
  const waiting = new Set<(reason: DOMException) => void>();
  player.play = () =>
    new Promise<void>((resolve, reject) => {
      waiting.add(reject);
      void define('svc-player').then(() => {
        if (!waiting.delete(reject)) return; // paused meanwhile
        if (!customElements.get('svc-player')) return reject(failure('NetworkError'));
        // Defined: the element's own methods (the upgrade may have removed these already).
        delete player.play;
        delete player.pause;
        player.play!().then(resolve, reject);
      });
    });
  player.pause = () => {
    for (const reject of waiting) reject(failure('AbortError'));
    waiting.clear();
  };
}

const failure = (name: string) => new DOMException('', name);

function scan(root: ParentNode): void {
  if (root instanceof Element) found(root);
  root.querySelectorAll(SELECTOR).forEach(found);
}

const observer = new MutationObserver((records) => {
  // Every tag registered: the browser upgrades whatever comes next by itself.
  if (TAGS.every((tag) => customElements.get(tag))) return observer.disconnect();
  for (const record of records) {
    for (const node of record.addedNodes) if (node instanceof Element) scan(node);
    // A click-to-load player whose `loading` changed while it waited.
    if (record.type === 'attributes') found(record.target as Element);
  }
});

/**
 * Registers the svc-* tags found in `root` now, and those added to it later. The document is
 * discovered when this module loads; call it for a shadow root (or a detached tree) whose elements
 * the document's observer does not see.
 */
export function discover(root: Document | ShadowRoot | Element = document): void {
  const target = root instanceof Document ? root.documentElement : root;
  scan(target);
  observer.observe(target, { childList: true, subtree: true, attributes: true, attributeFilter: ['loading'] });
}

discover();
