// <svc-playlist-editor> in the viewer's language (the nearest `lang`), with errors shown by their
// code, never as the relay's English sentence; and its one network seam, `client()`, overridden the
// way every element test does it (an instance property wrapping the real client).
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '../../../src/elements/svc-playlist-editor/define.js';
import type { SvcPlaylistEditor } from '../../../src/elements/svc-playlist-editor/svc-playlist-editor.js';
import type { PlaylistErrorDetail } from '../../../src/elements/svc-playlist-editor/svc-playlist-editor.js';
import type { AnnotatedPlaylist } from '../../../src/core/relay-client.js';
import french from '../../../src/elements/locales/fr.js';
import german from '../../../src/elements/locales/de.js';
import japanese from '../../../src/elements/locales/ja.js';

const { 'svc-playlist-editor': fr, errors: frErrors } = french;
const { 'svc-playlist-editor': de, errors: deErrors } = german;
const ja = japanese['svc-playlist-editor'];
import { control, relay, seedVod, trustRelayOrigin } from '../../support/browser.js';
import { wrapClient } from '../../support/seam.js';

declare const describe: (name: string, body: (this: { timeout(ms: number): void }) => void) => void;
declare const it: (name: string, body: () => Promise<void>) => void;

/** A playlist holding one VOD; returns its id and the VOD's title. */
async function playlistWithVod(): Promise<{ id: string; title: string; vodTitle: string }> {
  const { vod_id, title: vodTitle } = await seedVod();
  const title = `Liste ${Date.now().toString(36)}`;
  const { id } = await relay<AnnotatedPlaylist>('POST', '/playlists', { title, description: 'translations' });
  await relay('PUT', `/playlists/${id}/content`, { items: [{ id: vod_id, type: 'vod' }] });
  return { id, title, vodTitle };
}

/** An editor inside `<div lang=…>`, loading `playlistId`; resolves once the playlist is shown. */
async function mountIn(lang: string, playlistId: string, setup?: (el: SvcPlaylistEditor) => void): Promise<{ page: HTMLElement; el: SvcPlaylistEditor }> {
  const page = await fixture<HTMLDivElement>(html`<div lang=${lang}></div>`);
  const el = document.createElement('svc-playlist-editor');
  setup?.(el);
  el.setAttribute('playlist-id', playlistId);
  const loaded = oneEvent(el, 'svc-playlist-load');
  page.append(el);
  await loaded;
  await el.updateComplete;
  return { page, el };
}

const $ = (el: SvcPlaylistEditor, selector: string) => {
  const found = el.shadowRoot!.querySelector<HTMLElement>(selector);
  if (!found) throw new Error(`nothing matches ${selector}`);
  return found;
};
const text = (el: SvcPlaylistEditor, selector: string) => $(el, selector).textContent!.trim();
const saveLabel = (el: SvcPlaylistEditor) => text(el, 'button[part~="save"]');

describe('<svc-playlist-editor> translations and network seam', function () {
  this.timeout(60_000);

  it('shows the language of an ancestor lang, follows a change at runtime, and takes fr-CA as French', async () => {
    const { id, title, vodTitle } = await playlistWithVod();
    const { page, el } = await mountIn('fr', id);
    await waitUntil(() => saveLabel(el) === fr.save, 'French strings');
    expect(text(el, '[part~="dirty"]')).to.equal(fr.clean);
    expect(text(el, '#items-heading')).to.equal(fr.itemsHeading);
    expect(text(el, '[part~="library"] h3')).to.equal(fr.libraryHeading);
    // Accessible names too.
    expect($(el, 'ol[part~="list"]').getAttribute('aria-label')).to.equal(`Éléments de ${title}`);
    expect($(el, 'button[data-action="remove"]').getAttribute('aria-label')).to.equal(`Retirer ${vodTitle}`);
    expect($(el, 'div[dir]').getAttribute('dir')).to.equal('ltr');

    page.setAttribute('lang', 'de');
    await waitUntil(() => saveLabel(el) === de.save, 'German strings after lang changed');
    expect($(el, 'button[data-action="remove"]').getAttribute('aria-label')).to.equal(`${vodTitle} entfernen`);

    page.setAttribute('lang', 'fr-CA');
    await waitUntil(() => saveLabel(el) === fr.save, 'fr-CA shows French');

    // An announcement is in the viewer's language.
    $(el, 'button[data-action="remove"]').click();
    await el.updateComplete;
    expect(text(el, '[part~="live"]')).to.equal(`${vodTitle} retiré. Éléments restants : 0.`);
  });

  it('shows English for an unknown language, right-to-left for Arabic, and the strings property over a translation', async () => {
    const { id } = await playlistWithVod();
    const unknown = await mountIn('zz', id);
    expect(saveLabel(unknown.el)).to.equal('Save');
    expect(text(unknown.el, '[part~="dirty"]')).to.equal('All changes saved');

    const arabic = await mountIn('ar', id);
    await waitUntil(() => $(arabic.el, 'div[dir]').getAttribute('dir') === 'rtl', 'Arabic lays out right-to-left');

    const japanese = await mountIn('ja', id, (el) => (el.strings = { save: 'ほぞん' }));
    await waitUntil(() => text(japanese.el, '[part~="dirty"]') === ja.clean, 'Japanese strings');
    expect(saveLabel(japanese.el)).to.equal('ほぞん', 'the strings property wins over the translation');
  });

  it('shows a failed load by its code in the viewer\'s language; the relay\'s English sentence appears nowhere', async () => {
    const page = await fixture<HTMLDivElement>(html`<div lang="fr"></div>`);
    const el = document.createElement('svc-playlist-editor');
    el.setAttribute('playlist-id', 'no-such-playlist');
    const failed = oneEvent(el, 'svc-error');
    page.append(el);
    const { detail } = await failed;
    expect(detail.code).to.equal('not_found');
    expect(detail.message, 'the technical message stays in the event').to.not.equal('');
    await waitUntil(() => el.shadowRoot!.querySelector('button')?.textContent?.trim() === fr.createInstead, 'French');
    expect(text(el, '[part~="error"]')).to.equal(fr.unknownPlaylist.replace('{id}', 'no-such-playlist'));
    expect(el.shadowRoot!.textContent).to.not.contain(detail.message);

    // Another failure (the relay cannot be reached), in German: the viewer's message for the code.
    const german = await fixture<HTMLDivElement>(html`<div lang="de"></div>`);
    const other = document.createElement('svc-playlist-editor');
    trustRelayOrigin('http://127.0.0.1:9');
    other.setAttribute('relay', 'http://127.0.0.1:9/svc');
    other.setAttribute('playlist-id', 'p1');
    const unreachable = oneEvent(other, 'svc-error');
    german.append(other);
    const failure = (await unreachable).detail;
    expect(failure.code).to.equal('relay_unreachable');
    await waitUntil(() => other.shadowRoot!.querySelector('button')?.textContent?.trim() === de.retry, 'German');
    expect(text(other, '[part~="error"]')).to.equal(de.loadFailed.replace('{message}', deErrors.relay_unreachable));
    expect(other.shadowRoot!.textContent).to.not.contain(failure.message);
  });

  it('through client(): an exception that is not a network failure is internal, its message only in the event', async () => {
    const { id } = await playlistWithVod();
    const page = await fixture<HTMLDivElement>(html`<div lang="fr"></div>`);
    const el = document.createElement('svc-playlist-editor');
    wrapClient(el, (client) => {
      client.playlist = async () => {
        throw new TypeError('cannot read properties of undefined (reading "content")');
      };
    });
    el.setAttribute('playlist-id', id);
    const failed = oneEvent(el, 'svc-error');
    page.append(el);
    const detail = (await failed).detail as PlaylistErrorDetail;
    expect(detail).to.deep.equal({ code: 'internal', message: 'cannot read properties of undefined (reading "content")', playlistId: id });
    await waitUntil(() => el.shadowRoot!.querySelector('[part~="error"]')?.textContent?.includes(frErrors.internal), 'French internal error');
    expect(el.getAttribute('state')).to.equal('error');
    expect(text(el, 'button')).to.equal(fr.retry, 'not a connection problem: retry, not "create"');
    expect(el.shadowRoot!.textContent).to.not.contain('cannot read properties');
    expect(el.shadowRoot!.textContent).to.not.contain(frErrors.network_error);
  });

  it('a conflict shows their save time in the viewer\'s locale, and a failed save by its code (a second save through the relay, then the service failing)', async () => {
    const { id, vodTitle } = await playlistWithVod();
    const { el } = await mountIn('de', id);
    await waitUntil(() => saveLabel(el) === de.save, 'German strings');
    // Someone else saves the same list through the relay meanwhile: the element's version is stale.
    const shown = await relay<AnnotatedPlaylist>('GET', `/playlists/${id}`);
    await relay('PUT', `/playlists/${id}/content`, {
      items: (shown.content.list ?? []).map((item) => ({ id: item.id, type: item.type })),
      base_save_date: shown.save_date,
    });
    const theirs = await relay<AnnotatedPlaylist>('GET', `/playlists/${id}`);
    $(el, 'button[data-action="remove"]').click();
    await el.updateComplete;
    const conflict = oneEvent(el, 'svc-playlist-conflict');
    $(el, 'button[part~="save"]').click();
    await conflict;
    await el.updateComplete;
    expect(text(el, '#conflict-heading')).to.equal(de.conflictHeading);
    const date = new Date(theirs.save_date).toLocaleString('de');
    expect(text(el, '[part~="conflict"] p')).to.equal(
      de.conflictMessage.replace('{date}', date).replace('{count}', '1').replace('{titles}', vodTitle),
    );

    // Overwriting fails upstream (the service answers 503 to every try): the German message for the
    // code, not the relay's sentence.
    await control('/faults', { origin: 'api', method: 'PUT', status: 503, count: 0 });
    try {
      const failed = oneEvent(el, 'svc-error');
      $(el, 'button[data-action="overwrite"]').click();
      const { detail } = await failed;
      expect(detail.code).to.equal('upstream_unavailable');
      await el.updateComplete;
      expect(text(el, '[part~="error"]')).to.equal(de.saveFailed.replace('{message}', deErrors.upstream_unavailable));
      expect(el.shadowRoot!.textContent).to.not.contain(detail.message);
    } finally {
      await control('/reset', {});
    }
  });
});
