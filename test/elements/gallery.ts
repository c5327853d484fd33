// Every element in the states that show most of its parts, mounted inside a given container: the
// page the typography and theme tests (typography.browser.test.ts, themes.browser.test.ts) vary.
import { oneEvent, waitUntil } from '@open-wc/testing';
import '../../src/elements/define.js';
import type { SvcUploader } from '../../src/elements/svc-uploader/svc-uploader.js';
import { relay, seedVod } from '../support/browser.js';

const WAIT = { timeout: 15_000 };

export type Shown = Record<string, HTMLElement>;

let playlistId: string | undefined;

/** One playlist with one ready video, made once per test page. */
async function playlist(): Promise<string> {
  if (playlistId) return playlistId;
  const { vod_id } = await seedVod();
  const created = await relay<{ id: string }>('POST', '/playlists', { title: 'Gallery', description: 'themes and typography' });
  await relay('PUT', `/playlists/${created.id}/content`, { items: [{ id: vod_id, type: 'vod' }] });
  // Both galleries show the same playlist: wait out the service's delay, so neither shows "still applying".
  await waitUntil(async () => !(await relay<{ pending?: true }>('GET', `/playlists/${created.id}`)).pending, 'the save applied', WAIT);
  return (playlistId = created.id);
}

function add<T extends HTMLElement>(parent: HTMLElement, tag: string, attributes: Record<string, string> = {}): T {
  const el = document.createElement(tag) as T;
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  parent.append(el);
  return el;
}

/**
 * Mounts, in `parent`: an uploader with a refused file's row, a playlist editor showing a playlist,
 * the channel form with the relay's regions, a click-to-load player with a title and no poster, and
 * a player whose video does not exist. Resolves once each shows that state.
 */
export async function mountGallery(parent: HTMLElement): Promise<Shown> {
  const id = await playlist();
  const uploader = add<SvcUploader>(parent, 'svc-uploader', { 'max-size': '50000000' });
  const editor = document.createElement('svc-playlist-editor');
  editor.setAttribute('playlist-id', id);
  const loaded = oneEvent(editor, 'svc-playlist-load');
  parent.append(editor);
  const channel = add(parent, 'svc-channel-setup');
  const facade = add(parent, 'svc-player', { 'content-id': 'gallery-vod', loading: 'click', title: 'A clip with a title' });
  const missing = document.createElement('svc-player');
  missing.setAttribute('content-id', 'no-such-video');
  missing.setAttribute('loading', 'eager');
  const failed = oneEvent(missing, 'svc-error');
  parent.append(missing);

  await uploader.addFiles([new File(['x'], 'notes.txt', { type: 'text/plain' })]);
  await loaded;
  await failed;
  const shadow = (el: Element, selector: string) => () => el.shadowRoot!.querySelector(selector);
  await waitUntil(shadow(uploader, '[part~="name"]'), 'the uploader row', WAIT);
  await waitUntil(shadow(editor, '[part~="library-item"]'), 'the library', WAIT);
  await waitUntil(() => channel.shadowRoot!.querySelectorAll('input[type="radio"]').length === 3, 'the regions', WAIT);
  await waitUntil(shadow(facade, '[part~="play"]'), 'the play button', WAIT);
  await waitUntil(shadow(missing, '.error'), 'the error', WAIT);
  const all: Shown = { uploader, editor, channel, facade, missing };
  await Promise.all(Object.values(all).map((el) => (el as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete));
  return all;
}
