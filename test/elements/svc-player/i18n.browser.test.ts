// <svc-player> in the viewer's language: the nearest `lang` attribute picks the strings (loaded with
// the player's lazy chunks), a change of `lang` re-renders, the `strings` property still wins, and
// errors from the relay are shown by their code in that language, never as the relay's sentence.
// Real browser, real relay and local service.
import { expect, waitUntil } from '@open-wc/testing';
import { seedVod, testEnv, trustRelayOrigin } from '../../support/browser.js';
import type { SvcPlayer } from '../../../src/elements/svc-player/svc-player.js';
import { mount, wrapClient } from './helpers.js';

type Body = (this: { timeout(ms: number): void }) => unknown;
declare const describe: (name: string, body: () => void) => void;
declare const it: (name: string, body: Body) => void;
declare const before: (body: Body) => void;
declare const afterEach: (body: Body) => void;

let vodId: string;
let playerOrigin: string;

before(async () => {
  playerOrigin = new URL((await testEnv()).player_url).origin;
  vodId = (await seedVod()).vod_id;
});

afterEach(() => {
  for (const section of document.querySelectorAll('section[lang]')) section.remove();
});

/** An ancestor with `lang` (the element itself has none). */
function page(lang: string): HTMLElement {
  const section = document.createElement('section');
  section.lang = lang;
  document.body.append(section);
  return section;
}

const label = (el: SvcPlayer) => el.shadowRoot!.querySelector('button[part~=play]')?.getAttribute('aria-label');
const alertText = (el: SvcPlayer) => el.shadowRoot!.querySelector('[part="error"]')?.textContent?.trim();

async function labelled(el: SvcPlayer, expected: string): Promise<void> {
  await waitUntil(() => label(el) === expected, `the play button reads "${expected}" (is "${label(el)}")`, { timeout: 5000 });
}

describe('<svc-player> in the viewer’s language', () => {
  it('names the play button in French from an ancestor’s lang, with and without a title', async () => {
    const section = page('fr');
    const titled = mount({ 'content-id': vodId, loading: 'click', title: 'Chats qui jouent' }, { parent: section });
    const untitled = mount({ 'content-id': vodId, loading: 'click' }, { parent: section });
    await labelled(titled.el, 'Lire «\u00a0Chats qui jouent\u00a0»');
    await labelled(untitled.el, 'Lire la vidéo');
  });

  it('re-renders when lang changes at runtime', async () => {
    const section = page('fr');
    const { el } = mount({ 'content-id': vodId, loading: 'click' }, { parent: section });
    await labelled(el, 'Lire la vidéo');
    section.lang = 'de';
    await labelled(el, 'Video abspielen');
    section.lang = 'en';
    await labelled(el, 'Play video');
  });

  it('takes fr-CA as French and an unknown language as English', async () => {
    const canadian = mount({ 'content-id': vodId, loading: 'click' }, { parent: page('fr-CA') });
    await labelled(canadian.el, 'Lire la vidéo');
    const unknown = mount({ 'content-id': vodId, loading: 'click' }, { parent: page('zz') });
    await labelled(unknown.el, 'Play video');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await unknown.el.updateComplete;
    expect(label(unknown.el)).to.equal('Play video');
  });

  it('still lets the strings property replace a string in a translated page', async () => {
    const section = page('fr');
    const { el } = mount({ 'content-id': vodId, loading: 'click' }, { parent: section, properties: { strings: { play: 'Regarder' } } });
    await labelled(el, 'Regarder');
    const other = mount({ 'content-id': vodId, loading: 'click' }, { parent: section });
    await labelled(other.el, 'Lire la vidéo');
    other.el.strings = { play: 'Voir' };
    await labelled(other.el, 'Voir');
  });

  it('shows the loading state and an untitled iframe’s title in French', async () => {
    const section = page('fr');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { el, ready } = mount({ 'content-id': vodId, variant: 'iframe', loading: 'eager' }, { parent: section });
    wrapClient(el, (client) => {
      const embed = client.embed.bind(client);
      client.embed = async (...args) => {
        await held;
        return embed(...args);
      };
    });
    await waitUntil(
      () => el.shadowRoot!.querySelector('[part="loading"][role="status"]')?.textContent?.includes('Chargement de la vidéo…'),
      'the loading state in French',
    );
    release();
    const iframe = (await ready).element as HTMLIFrameElement;
    await waitUntil(() => iframe.title === 'Lecteur vidéo', `the iframe title in French (is "${iframe.title}")`);
    section.lang = 'ja';
    await waitUntil(() => iframe.title === '動画プレーヤー', 'the iframe title follows the language');
  });

  it('shows a relay error by its code in German, never the relay’s English sentence', async () => {
    const { el, error } = mount({ 'content-id': '424242', loading: 'eager' }, { parent: page('de') });
    const detail = await error;
    expect(detail.code).to.equal('not_found');
    await waitUntil(() => alertText(el) === 'Dieses Video ist nicht verfügbar.', `the German message (is "${alertText(el)}")`);
    expect(el.shadowRoot!.innerHTML).not.to.contain(detail.message);
    expect(el.shadowRoot!.textContent).not.to.match(/not available|not found/i);
  });

  it('says "cannot be shown here" in Japanese when the relay cannot be reached', async () => {
    trustRelayOrigin('http://127.0.0.1:9');
    const { el, error } = mount({ 'content-id': vodId, loading: 'eager', relay: 'http://127.0.0.1:9/svc' }, { parent: page('ja') });
    const detail = await error;
    expect(detail.code).to.equal('relay_unreachable');
    await waitUntil(() => alertText(el) === 'この動画はここでは表示できません。', `the Japanese message (is "${alertText(el)}")`);
    expect(el.shadowRoot!.innerHTML).not.to.contain(detail.message);
  });

  it('lets strings.errors replace the message of one error code', async () => {
    const { el, error } = mount(
      { 'content-id': '424242', loading: 'eager' },
      { parent: page('fr'), properties: { strings: { errors: { not_found: 'Introuvable.' } } } },
    );
    expect((await error).code).to.equal('not_found');
    await waitUntil(() => alertText(el) === 'Introuvable.', `the page's own message (is "${alertText(el)}")`);
  });

  it('lays out right-to-left in an Arabic page without a dir attribute', async () => {
    const { el, error } = mount({ code: '<b>not a player</b>', 'player-origin': playerOrigin, loading: 'eager' }, { parent: page('ar') });
    expect((await error).code).to.equal('embed_rejected');
    await waitUntil(() => alertText(el) === 'هذا الفيديو غير متاح.', `the Arabic message (is "${alertText(el)}")`);
    const box = el.shadowRoot!.querySelector<HTMLElement>('[part="box"]')!;
    expect(box.getAttribute('dir')).to.equal('rtl');
    expect(getComputedStyle(el.shadowRoot!.querySelector('[part="error"] p')!).direction).to.equal('rtl');
  });
});
