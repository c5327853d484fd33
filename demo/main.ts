// The demo page: wires the sections together; the loader (as the script tag's elements.js) registers
// each tag when it appears. Everything goes through the relay at /svc (proxied by `npm start`); the
// page never sees the API key.
import he from 'he';
import '../src/elements/loader.js';
import { RelayClient, type LibraryItem } from '../src/core/relay-client.js';
import { readEventStream } from '../src/core/sse.js';
import { backoffDelay, delay } from '../src/core/timing.js';

const relay = new RelayClient({ baseUrl: '/svc' });
const PLAYLIST_KEY = 'svc-demo:playlist';

const $ = <T extends Element>(selector: string): T => {
  const element = document.querySelector<T>(selector);
  if (!element) throw new Error(`demo: ${selector} is missing from the page`);
  return element;
};

const libraryList = $<HTMLUListElement>('#library-list');
const libraryStatus = $<HTMLParagraphElement>('#library-status');
const cardTemplate = $<HTMLTemplateElement>('#vod-card');
const playlistSelect = $<HTMLSelectElement>('#playlist-select');
const editorSlot = $<HTMLDivElement>('#editor-slot');
const previewSlot = $<HTMLDivElement>('#preview-slot');
const previewUnsaved = $<HTMLParagraphElement>('#preview-unsaved');

// ---- Library -------------------------------------------------------------------------------

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function vodCard(item: LibraryItem): HTMLLIElement {
  const card = cardTemplate.content.firstElementChild!.cloneNode(true) as HTMLLIElement;
  card.dataset.id = item.id;
  card.querySelector('.card-title')!.textContent = item.title || `Video ${item.id}`;
  const created = new Date(item.created_at);
  card.querySelector('.card-meta')!.textContent = `ID ${item.id}${
    Number.isNaN(created.getTime()) ? '' : ` · ${dateFormat.format(created)}`
  }`;
  const player = card.querySelector('svc-player')!;
  player.setAttribute('content-id', item.id);
  player.setAttribute('aria-label', `Preview of ${item.title}`);
  const details = card.querySelector<HTMLDetailsElement>('details')!;
  details.addEventListener('toggle', () => {
    if (details.open) void showEmbedCode(card, item.id);
  });
  card.querySelector('.copy')!.addEventListener('click', () => void copyEmbedCode(card));
  return card;
}

/** Shows the script embed code as text: decoded once, never parsed into the page. */
async function showEmbedCode(card: HTMLElement, id: string): Promise<void> {
  const code = card.querySelector('code')!;
  if (code.dataset.loaded) return;
  code.textContent = 'Loading…';
  try {
    const response = await relay.embed('vod', id, 'javascript');
    code.textContent = he.decode(response.code);
    code.dataset.loaded = 'true';
  } catch (error) {
    code.textContent = `The embed code could not be loaded: ${(error as Error).message}`;
  }
}

async function copyEmbedCode(card: HTMLElement): Promise<void> {
  const status = card.querySelector('.copy-status')!;
  await showEmbedCode(card, card.dataset.id!);
  try {
    await navigator.clipboard.writeText(card.querySelector('code')!.textContent ?? '');
    status.textContent = 'Copied';
  } catch {
    status.textContent = 'Copying is not allowed here: select the code and copy it.';
  }
}

let libraryItems: LibraryItem[] = [];
let libraryLoad: Promise<void> | undefined;
let libraryAgain = false;

/** Reloads the library; calls during a load coalesce into one more load after it. */
function refreshLibrary(): Promise<void> {
  if (libraryLoad) {
    libraryAgain = true;
    return libraryLoad;
  }
  libraryLoad = loadLibrary().finally(() => {
    libraryLoad = undefined;
    if (libraryAgain) {
      libraryAgain = false;
      void refreshLibrary();
    }
  });
  return libraryLoad;
}

async function loadLibrary(): Promise<void> {
  try {
    libraryItems = (await relay.library()).items;
  } catch (error) {
    libraryStatus.textContent = `The library could not be loaded: ${(error as Error).message}`;
    return;
  }
  const vods = libraryItems.filter((item) => item.type === 'vod');
  // Keep the cards that exist (their players keep playing); add new ones at the top.
  const shown = new Set([...libraryList.children].map((child) => (child as HTMLElement).dataset.id));
  for (const vod of [...vods].sort((a, b) => a.created_at.localeCompare(b.created_at))) {
    if (!shown.has(vod.id)) libraryList.prepend(vodCard(vod));
  }
  const count = vods.length;
  libraryStatus.textContent =
    count === 0 ? 'No videos yet: upload one above.' : `${count} ${count === 1 ? 'video' : 'videos'} ready.`;
  updatePlaylistOptions();
}

/** Follows the relay's event stream; a VOD that becomes ready (from any tab) refreshes the library. */
async function followEvents(): Promise<void> {
  let lastEventId = '';
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await readEventStream({
        client: relay,
        lastEventId,
        onOpen: () => (attempt = 0),
        onEvent: (event) => {
          if (event.type !== 'upload') return;
          const data = JSON.parse(event.data) as { state?: string };
          if (data.state === 'ready') void refreshLibrary();
        },
      });
      lastEventId = result.lastEventId;
    } catch {
      // The stream broke or could not open: wait and reconnect; Last-Event-ID replays what we missed.
    }
    await delay(backoffDelay(Math.max(1, attempt), 1000, 15_000));
  }
}

document.addEventListener('svc-upload-ready', () => void refreshLibrary());
document.addEventListener('svc-channel-create', () => void refreshLibrary());

// ---- Playlists -----------------------------------------------------------------------------

function updatePlaylistOptions(): void {
  const current = playlistSelect.value;
  const playlists = libraryItems.filter((item) => item.type === 'playlist');
  playlistSelect.replaceChildren(
    new Option('New playlist…', ''),
    ...playlists.map((playlist) => new Option(`${playlist.title} (${playlist.id})`, playlist.id)),
  );
  playlistSelect.value = playlists.some((playlist) => playlist.id === current) ? current : '';
}

/** A fresh editor (and preview) for a playlist, or the creation form when `id` is empty. */
function openPlaylist(id: string): void {
  const editor = document.createElement('svc-playlist-editor');
  if (id) editor.setAttribute('playlist-id', id);
  editorSlot.replaceChildren(editor);
  showPreview(id);
  if (id) localStorage.setItem(PLAYLIST_KEY, id);
  else localStorage.removeItem(PLAYLIST_KEY);
}

function showPreview(id: string): void {
  previewUnsaved.hidden = true;
  if (!id) {
    const hint = document.createElement('p');
    hint.className = 'muted';
    hint.textContent = 'Save a playlist to preview it here.';
    previewSlot.replaceChildren(hint);
    return;
  }
  // A new element each time, so the preview shows the list as just saved.
  const player = document.createElement('svc-player');
  player.setAttribute('kind', 'playlist');
  player.setAttribute('content-id', id);
  player.setAttribute('loading', 'eager');
  previewSlot.replaceChildren(player);
}

playlistSelect.addEventListener('change', () => {
  const editor = editorSlot.querySelector('svc-playlist-editor') as (HTMLElement & { dirty?: boolean }) | null;
  if (editor?.dirty && !confirm('This playlist has unsaved changes. Open another one and lose them?')) {
    playlistSelect.value = editor.getAttribute('playlist-id') ?? '';
    return;
  }
  openPlaylist(playlistSelect.value);
});

/** The id of the editor's playlist once it has one (it reflects `playlist-id` after creating). */
function editorPlaylistId(event: Event): string {
  const editor = event.composedPath().find((node) => node instanceof HTMLElement && node.localName === 'svc-playlist-editor');
  const detail = (event as CustomEvent<{ playlist?: { id?: string }; id?: string; playlistId?: string }>).detail;
  return (
    (editor as HTMLElement | undefined)?.getAttribute('playlist-id') ||
    detail?.playlist?.id ||
    detail?.playlistId ||
    detail?.id ||
    ''
  );
}

document.addEventListener('svc-playlist-create', async (event) => {
  const id = editorPlaylistId(event);
  if (!id) return;
  localStorage.setItem(PLAYLIST_KEY, id);
  await refreshLibrary();
  playlistSelect.value = id;
  showPreview(id);
});
// The preview plays the last saved list: say so while the editor holds unsaved changes.
document.addEventListener('svc-playlist-change', (event) => {
  previewUnsaved.hidden = !(event as CustomEvent<{ dirty: boolean }>).detail.dirty;
});
document.addEventListener('svc-playlist-save', (event) => {
  const id = editorPlaylistId(event);
  if (id) showPreview(id);
});

// ---- Start ---------------------------------------------------------------------------------

void refreshLibrary().then(() => {
  // Reopen the playlist of the last visit, if the relay still knows it.
  const remembered = localStorage.getItem(PLAYLIST_KEY) ?? '';
  const known = libraryItems.some((item) => item.type === 'playlist' && item.id === remembered);
  if (known) playlistSelect.value = remembered;
  openPlaylist(known ? remembered : '');
});
void followEvents();
