// <svc-channel-setup> in the viewer's language (the nearest `lang`), with numbers through Intl, errors
// shown by their code, right-to-left for Arabic; its one session state; and the one network seam,
// `client()`, overridden on the instance (test/support/seam.ts). Real relay and local service (web-test-runner.config.mjs).
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import '../../../src/elements/svc-channel-setup/define.js';
import type { SvcChannelSetup } from '../../../src/elements/svc-channel-setup/svc-channel-setup.js';
import type { PublicChannel } from '../../../src/elements/svc-channel-setup/public-channel.js';
import type { SvcErrorDetail } from '../../../src/elements/shared/events.js';
import { RelayClient } from '../../../src/core/relay-client.js';
import { control } from '../../support/browser.js';
import { overrideSeam } from '../../support/seam.js';

declare const describe: (name: string, body: () => void) => void;
declare const it: (name: string, body: () => Promise<void> | void) => void;

const WAIT = { timeout: 10_000 };

function $<T extends Element = HTMLElement>(el: SvcChannelSetup, selector: string): T {
  const found = el.shadowRoot!.querySelector<T>(selector);
  if (!found) throw new Error(`nothing matches ${selector}`);
  return found;
}
const text = (el: SvcChannelSetup, selector: string) => $(el, selector).textContent!.trim();

/** The element inside a wrapper with `lang`, once the form shows that language's heading. */
async function inLanguage(lang: string, heading: string): Promise<{ wrapper: HTMLElement; el: SvcChannelSetup }> {
  const wrapper = await fixture<HTMLElement>(html`<div lang=${lang}><svc-channel-setup></svc-channel-setup></div>`);
  const el = wrapper.querySelector('svc-channel-setup')!;
  await waitUntil(() => el.shadowRoot!.querySelector('#form-heading')?.textContent === heading, `${lang} shown`, WAIT);
  await waitUntil(() => el.shadowRoot!.querySelectorAll('input[type="radio"]').length === 3, 'regions shown', WAIT);
  return { wrapper, el };
}

async function submit(el: SvcChannelSetup, values: Partial<Pick<SvcChannelSetup, 'channelTitle' | 'description' | 'region' | 'renditionCount'>>) {
  Object.assign(el, values);
  await el.updateComplete;
  $<HTMLButtonElement>(el, 'button[type="submit"]').click();
}

describe('<svc-channel-setup> in the viewer’s language', () => {
  it('loads the panel and its preview player only once a channel is being created', async () => {
    // First in this file's page: nothing before has created a channel.
    const { el } = await inLanguage('en', 'Create a live channel');
    expect(customElements.get('svc-player'), 'no player before a channel exists').to.equal(undefined);
    const created = oneEvent(el, 'svc-channel-create');
    await submit(el, { channelTitle: 'Lazy panel', region: 'europe', renditionCount: 1 });
    await created;
    expect(customElements.get('svc-player')).to.not.equal(undefined);
    expect(el.shadowRoot!.querySelector('svc-player')).to.not.equal(null);
    expect(el.shadowRoot!.activeElement?.id).to.equal('created-heading');
  });

  it('shows French from an ancestor’s lang, in the form and in the panel, with accessible names', async () => {
    const { el } = await inLanguage('fr', 'Créer une chaîne en direct');
    expect(text(el, 'label[for="title"]')).to.equal('Titre');
    expect(text(el, 'button[type="submit"]')).to.equal('Créer la chaîne');
    const regions = [...el.shadowRoot!.querySelectorAll('input[type="radio"]')].map((radio) => radio.closest('label')!.textContent!.trim());
    expect(regions).to.deep.equal(['Amérique du Nord', 'Asie-Pacifique', 'Europe']);
    expect($(el, '#renditions').getAttribute('aria-describedby')).to.equal('renditions-hint');
    expect(text(el, '#renditions-hint')).to.contain('Votre encodeur doit diffuser chaque rendu');

    const created = oneEvent(el, 'svc-channel-create');
    await submit(el, { channelTitle: 'Chaîne', region: 'asia_pacific', renditionCount: 3 });
    await created;
    expect(text(el, '#created-heading')).to.equal('Chaîne créée');
    expect(text(el, '[part="summary"]')).to.equal('« Chaîne » en Asie-Pacifique. Rendus : 3 ; votre encodeur doit diffuser chacun d’eux.');
    expect($(el, 'button[data-copy="password"]').getAttribute('aria-label')).to.equal('Copier Mot de passe');
    expect($(el, '[data-reveal="login"]').getAttribute('aria-label')).to.equal('Afficher Identifiant');
    expect(text(el, '[data-reveal="login"]')).to.equal('Afficher');
    expect(text(el, '[data-setting="login"] .visually-hidden')).to.equal('masqué');
    expect(text(el, '[part~="waiting"]')).to.equal('En attente de l’encodeur…');
    await expect(el).to.be.accessible();
  });

  it('follows a lang changed at runtime, takes fr-CA as French and an unknown language as English', async () => {
    const { wrapper, el } = await inLanguage('fr-CA', 'Créer une chaîne en direct');
    wrapper.lang = 'de';
    await waitUntil(() => text(el, '#form-heading') === 'Livekanal erstellen', 'German shown', WAIT);
    expect(text(el, 'button[type="submit"]')).to.equal('Kanal erstellen');
    wrapper.lang = 'zz';
    await waitUntil(() => text(el, '#form-heading') === 'Create a live channel', 'English shown', WAIT);
    expect(text(el, 'label[for="title"]')).to.equal('Title');
  });

  it('lets the strings property override a string of a translated page, and an error message', async () => {
    const { el } = await inLanguage('es', 'Crear un canal en directo');
    el.strings = { submit: '¡Al aire!', errors: { validation_failed: 'Revisa los campos marcados.' } };
    await el.updateComplete;
    expect(text(el, 'button[type="submit"]')).to.equal('¡Al aire!');
    expect(text(el, 'label[for="title"]')).to.equal('Título');
    el.novalidate = true;
    const failed = oneEvent(el, 'svc-error');
    await submit(el, { channelTitle: 'x', region: 'mars' });
    await failed;
    await el.updateComplete;
    expect(text(el, '[part="error"]')).to.equal('No se ha creado el canal: Revisa los campos marcados.');
    expect(text(el, '#region-error')).to.equal('Elige una de las regiones.');
  });

  it('shows a relay failure by its code in the viewer’s language, never the relay’s English sentence', async () => {
    const { el } = await inLanguage('fr', 'Créer une chaîne en direct');
    await control('/faults', { origin: 'api', method: 'POST', path: '/v2/channel', status: 500, count: 1 });
    const failed = oneEvent(el, 'svc-error');
    await submit(el, { channelTitle: 'Malchanceuse', region: 'europe' });
    const { detail } = (await failed) as CustomEvent<SvcErrorDetail>;
    expect(detail.code).to.equal('upstream_unavailable');
    await el.updateComplete;
    expect(text(el, '[role="alert"]')).to.equal(
      'La chaîne n’a pas été créée : Le service vidéo n’est pas disponible pour le moment. Réessayez plus tard.',
    );
    expect(el.shadowRoot!.textContent).to.not.contain(detail.message);
  });

  it('formats numbers in the viewer’s locale (German 5.000, Arabic digits)', async () => {
    const { wrapper, el } = await inLanguage('de', 'Livekanal erstellen');
    await submit(el, { channelTitle: 'Lang', description: 'x'.repeat(5001), renditionCount: 12 });
    await waitUntil(() => el.shadowRoot!.querySelector('#description-error'), 'description refused', WAIT);
    expect(text(el, '#description-error')).to.equal('Verwenden Sie höchstens 5.000 Zeichen.');
    expect(text(el, '#renditions-error')).to.equal('Geben Sie eine ganze Zahl von 1 bis 5 ein.');
    wrapper.lang = 'ar';
    const [one, five] = [1, 5].map((n) => new Intl.NumberFormat('ar').format(n));
    await waitUntil(() => text(el, '#form-heading') === 'إنشاء قناة بث مباشر', 'Arabic shown', WAIT);
    expect(text(el, '#renditions-error')).to.equal(`أدخل عددًا صحيحًا من ${one} إلى ${five}.`);
  });

  it('lays Arabic out right to left without a dir attribute on the page, and keeps a page’s own dir', async () => {
    const { wrapper, el } = await inLanguage('ar', 'إنشاء قناة بث مباشر');
    const form = $(el, 'form');
    expect(getComputedStyle(form).direction).to.equal('rtl');
    const title = $(el, '#title').getBoundingClientRect();
    const label = $(el, 'label[for="title"]').getBoundingClientRect();
    expect(Math.round(label.right), 'the label starts on the right').to.equal(Math.round(title.right));
    wrapper.remove();

    const ltr = await fixture<HTMLElement>(html`<div lang="ar" dir="ltr"><svc-channel-setup></svc-channel-setup></div>`);
    const own = ltr.querySelector('svc-channel-setup')!;
    await waitUntil(() => own.shadowRoot!.querySelector('#form-heading')?.textContent === 'إنشاء قناة بث مباشر', 'Arabic', WAIT);
    expect(getComputedStyle($(own, 'form')).direction, 'the page’s dir wins').to.equal('ltr');
  });
});

describe('<svc-channel-setup> state', () => {
  it('forgets the last channel’s reveal, copy and values on "Create another channel"', async () => {
    await executeServerCommand('svc-channel-setup-grant-clipboard');
    const { el } = await inLanguage('en', 'Create a live channel');
    let created = oneEvent(el, 'svc-channel-create');
    await submit(el, { channelTitle: 'First', description: 'one', region: 'europe' });
    await created;
    $<HTMLButtonElement>(el, '[data-reveal="password"]').click();
    $<HTMLButtonElement>(el, 'button[data-copy="id"]').click();
    await waitUntil(() => el.shadowRoot!.querySelector('[part="copied"]'), 'copied', WAIT);
    $<HTMLButtonElement>(el, '[part="another-button"]').click();
    await waitUntil(() => el.shadowRoot!.activeElement?.id === 'title', 'the form again', WAIT);
    expect([el.channelTitle, el.description, $<HTMLInputElement>(el, '#title').value]).to.deep.equal(['', '', '']);
    expect(text(el, '[part="status"]')).to.equal('');

    created = oneEvent(el, 'svc-channel-create');
    await submit(el, { channelTitle: 'Second', region: 'europe' });
    await created;
    expect($(el, '[data-reveal="password"]').getAttribute('aria-pressed')).to.equal('false');
    expect(el.shadowRoot!.querySelector('[part="copied"]')).to.equal(null);
  });

  it('drops the embed code of a channel left before it arrived', async () => {
    const { el } = await inLanguage('en', 'Create a live channel');
    // The next upstream GET of a channel (the first channel's embed code) takes 800 ms.
    await control('/faults', { origin: 'api', method: 'GET', path: '/v2/channel/', latency_ms: 800, count: 1 });
    let created = oneEvent(el, 'svc-channel-create');
    await submit(el, { channelTitle: 'Left', region: 'europe' });
    const first = ((await created) as CustomEvent<PublicChannel>).detail;
    await el.reset();
    created = oneEvent(el, 'svc-channel-create');
    await submit(el, { channelTitle: 'Kept', region: 'europe' });
    const second = ((await created) as CustomEvent<PublicChannel>).detail;
    const code = () => $<HTMLTextAreaElement>(el, '#embed-code').value;
    await waitUntil(() => code() !== '', 'embed code shown', WAIT);
    // Past the first answer's arrival: it must not replace the second channel's code.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(code()).to.contain(`-live-${second.id}`);
    expect(code()).to.not.contain(`-live-${first.id}`);
  });

  it('ignores controls slotted into the form', async () => {
    const el = await fixture<SvcChannelSetup>(html`<svc-channel-setup><input name="title" /></svc-channel-setup>`);
    const slotted = el.querySelector('input')!;
    slotted.value = 'not the channel';
    slotted.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    await el.updateComplete;
    expect(el.channelTitle).to.equal('');
  });
});

describe('<svc-channel-setup> reaches the relay only through client()', () => {
  const requests: string[] = [];
  /** `el` reaches the relay through a client that records each request, or fails creating with `failWith`. */
  function recordRequests(el: SvcChannelSetup, failWith?: unknown): void {
    overrideSeam(el, 'client', () => () => {
      const client = new RelayClient({
        baseUrl: '/svc',
        fetch: (input, init) => {
          requests.push(`${init?.method ?? 'GET'} ${String(input)}`);
          return fetch(input, init);
        },
      });
      if (failWith) client.createChannel = () => Promise.reject(failWith);
      return client;
    });
  }

  it('sends the create request and the embed request through the overridden client', async () => {
    requests.length = 0;
    const el = await fixture<SvcChannelSetup>(html`<svc-channel-setup></svc-channel-setup>`);
    recordRequests(el);
    await waitUntil(() => el.shadowRoot!.querySelectorAll('input[type="radio"]').length === 3, 'regions', WAIT);
    const created = oneEvent(el, 'svc-channel-create');
    await submit(el, { channelTitle: 'Seam', region: 'europe', renditionCount: 2 });
    const { detail } = (await created) as CustomEvent<PublicChannel>;
    await waitUntil(() => $<HTMLTextAreaElement>(el, '#embed-code').value !== '', 'embed code shown', WAIT);
    expect(requests).to.include('POST /svc/channels');
    expect(requests).to.include(`GET /svc/embed/channel/${detail.id}/javascript`);
  });

  it('shows a programming error as internal, with its message only in the svc-error detail', async () => {
    const el = await fixture<SvcChannelSetup>(html`<svc-channel-setup></svc-channel-setup>`);
    recordRequests(el, new RangeError('a bug in the page’s client'));
    const failed = oneEvent(el, 'svc-error');
    await submit(el, { channelTitle: 'Bug', region: 'europe' });
    const { detail } = (await failed) as CustomEvent<SvcErrorDetail>;
    expect(detail).to.deep.equal({ code: 'internal', message: 'a bug in the page’s client' });
    await el.updateComplete;
    expect(text(el, '[role="alert"]')).to.equal('The channel was not created: Something went wrong.');
  });
});
