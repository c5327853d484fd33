// The script-tag entry: what the relay serves at `<base path>/elements.js` (dist/cdn/elements.js).
// About a kilobyte that registers each svc-* tag the first time it appears in the document (or
// is added later) and imports that element's code only then. Every other file of dist/cdn/ is
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
// A file that cannot be downloaded is reported by each element that needed it (`svc-error`,
// `network_error`), and tried again at the next sighting: a click, `discover()`.
//
// Elements inside other components' shadow roots are not seen by the document's observer: call
// `discover(shadowRoot)` once for each such root (a component built with a bundler may import the
// element's define module from the package instead).

const TAGS = ['svc-player', 'svc-uploader', 'svc-playlist-editor', 'svc-channel-setup'] as const;
type Tag = (typeof TAGS)[number];
const SELECTOR = TAGS.join();

const modules: Record<Tag, () => Promise<unknown>> = {
  // The player's class is in the file every element's code imports (vite.config.ts SHARED_FILES):
  // registered here, so that another element's page does not register it; those clicked load first.
  'svc-player': () => import('./svc-player/script-tag.js').then(({ definePlayer }) => definePlayer(clicked)).finally(() => clicked.clear()),
  'svc-uploader': () => import('./svc-uploader/define.js'),
  'svc-playlist-editor': () => import('./svc-playlist-editor/define.js'),
  'svc-channel-setup': () => import('./svc-channel-setup/define.js'),
};

/** Click-to-load players clicked (the preview's play button) or asked to play() while the player's code was on its way. */
const clicked = new Set<Waiting>();

/** The imports under way or done, per tag (true once defined); a failed one is forgotten, so the next sighting tries again. */
const loading = new Map<string, Promise<boolean>>();

function define(tag: Tag): Promise<boolean> {
  let promise = loading.get(tag);
  if (!promise) {
    promise = modules[tag]().then(
      () => true,
      (error: unknown) => {
        // Defined meanwhile by another copy of the elements (a second loader's URL): nothing is missing.
        if (customElements.get(tag)) return true;
        loading.delete(tag);
        console.warn(lost(`the code of <${tag}>`), error);
        return false;
      },
    );
    loading.set(tag, promise);
  }
  return promise;
}

const lost = (what: string) => `svc-elements: ${what} could not be downloaded.`;
/** What a failed download of `element`'s code is reported as: `svc-error`'s detail, a stand-in play()'s rejection. */
const unloaded = (element: Element) => ({ code: 'network_error', message: lost(`the code of <${element.localName}>`) });

/** The download each element waits for: told once per attempt when it fails. */
const needs = new WeakMap<Element, Promise<boolean>>();

/**
 * Defines the tag of `element`, which needs its code now (a click-to-load player: once the viewer
 * asked for it); if the download fails, the element fires `svc-error` (`network_error`), as it
 * does when a part of it cannot be downloaded. Sighting it again (`discover()`) tries again.
 */
function need(element: Element): Promise<boolean> {
  const promise = define(element.localName as Tag);
  if (needs.get(element) != promise) {
    needs.set(element, promise);
    void promise.then((ok) => {
      if (ok || !element.isConnected) return;
      if (element.localName == 'svc-player') element.setAttribute('state', 'error');
      // The code of core/errors.ts's network_error (that module comes with the elements' code).
      element.dispatchEvent(new CustomEvent('svc-error', { bubbles: true, composed: true, detail: unloaded(element) }));
    });
  }
  return promise;
}

let preview: Promise<typeof import('./loader-preview.js') | void> | undefined;

function found(element: Element): void {
  const tag = element.localName as Tag;
  if (!TAGS.includes(tag) || customElements.get(tag)) return;
  // media-chrome's <media-controller> waits for its media element to be defined: no preview there.
  if (tag == 'svc-player' && clickToLoad(element) && !element.closest('media-controller,[slot=media]')) {
    standIns(element as Waiting);
    // The player's code already on its way (another player needed it): the element shows its own
    // button once it comes; if it does not, this one's (if it still waits for a click).
    if (loading.has(tag)) return void define(tag).then((ok) => ok || (element.isConnected && clickToLoad(element) && found(element)));
    // The play button alone until the viewer wants the video (or another player needs the code):
    // pointing at it downloads the code; a click (or play()) needs it. Without the button's own
    // file, the player's code, which shows the same button.
    preview ??= import('./loader-preview.js').catch((error: unknown) => {
      preview = undefined;
      console.warn(lost('the play button'), error);
    });
    void preview.then((module) => {
      // Made eager meanwhile (a property the page's script set after this module ran: read then).
      if (!module || !clickToLoad(element)) return void need(element);
      module.preview(element as Waiting, (wanted) => {
        if (!wanted) return define(tag);
        if (!customElements.get(tag)) clicked.add(element as Waiting);
        return need(element);
      });
    });
  } else void need(element);
}

type Waiting = HTMLElement & { play?: () => Promise<void>; pause?: () => void; activate?: () => void; loading?: string | null };

/** `loading="click"`: the property the page set before the code came (the element takes it), else the attribute. */
const clickToLoad = (element: Element) => (Object.hasOwn(element, 'loading') ? (element as Waiting).loading : element.getAttribute('loading')) == 'click';

/**
 * `play()` and `pause()` on a click-to-load player before its code is there (as a media element
 * has them): `play()` downloads the player, as a click does, then calls the element's own;
 * `pause()` rejects a `play()` still waiting with an AbortError (the load it started goes on).
 */
function standIns(player: Waiting): void {
  if (player.play) return;
  /** The rejections of the `play()` calls still waiting for the code. */
  const waiting = new Set<(reason: Error) => void>();
  player.play = () =>
    new Promise<void>((resolve, reject) => {
      waiting.add(reject);
      // Asked for before its first update, as a click on its play button (no button of its own then).
      if (!customElements.get('svc-player')) clicked.add(player);
      void need(player).then((ok) => {
        const paused = !waiting.delete(reject);
        // Upgraded: the element's own methods from now on (its constructor removed these already).
        // Not upgraded: the code failed, or the element was removed before it came (these stay).
        if (player.matches(':defined')) {
          if (paused) player.activate!();
          else player.play!().then(resolve, reject);
        } else if (!paused) reject(ok ? failure('AbortError') : Object.assign(new Error(), unloaded(player)));
      });
    });
  player.pause = () => {
    for (const reject of waiting) reject(failure('AbortError'));
    waiting.clear();
  };
}

const failure = (name: string) => new DOMException('', name);

// Nodes by their type, not `instanceof Element`: one moved in from a frame's document is another realm's.
function scan(root: ParentNode): void {
  if ((root as Node).nodeType == 1) found(root as Element);
  root.querySelectorAll(SELECTOR).forEach(found);
}

const observer = new MutationObserver((records) => {
  // Every tag registered: the browser upgrades whatever comes next by itself.
  if (TAGS.every((tag) => customElements.get(tag))) return observer.disconnect();
  for (const record of records) {
    for (const node of record.addedNodes) if (node.nodeType == 1) scan(node as Element);
    // A click-to-load player whose `loading` changed while it waited.
    if (record.type == 'attributes') found(record.target as Element);
  }
});

/**
 * Registers the svc-* tags found in `root` now, and those added to it later. The document is
 * discovered when this module loads; call it for a shadow root (or a detached tree) whose elements
 * the document's observer does not see.
 */
export function discover(root: Document | ShadowRoot | Element = document): void {
  scan(root);
  observer.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['loading'] });
}

discover();
