// <svc-channel-setup> in real browsers (Chromium, Firefox, WebKit), against the real relay and
// local service (see web-test-runner.config.mjs). The clipboard is read back with
// navigator.clipboard.readText() after test/support/wtr/svc-channel-setup.ts has granted the
// permissions.
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { executeServerCommand, sendKeys } from '@web/test-runner-commands';
import '../../../src/elements/svc-channel-setup/define.js';
import type { SvcChannelSetup } from '../../../src/elements/svc-channel-setup/svc-channel-setup.js';
import type { PublicChannel } from '../../../src/elements/svc-channel-setup/public-channel.js';
import type { SvcErrorDetail } from '../../../src/elements/shared/events.js';
import type { Channel, Region } from '../../../src/service/types.js';
import { control, testEnv } from '../../support/browser.js';

// Mocha's globals (web-test-runner's test framework), declared for this module only: the project
// has no @types/mocha, and a module-scoped declaration cannot clash with one added later.
declare const describe: (name: string, body: () => void) => void;
declare const it: (name: string, body: () => Promise<void> | void) => void;
declare const before: (body: () => Promise<void> | void) => void;

/** Upper bound for waits on the relay and local service (a busy 2-core machine); not a timing assertion. */
const NETWORK_WAIT = 10_000;
const WAIT = { timeout: NETWORK_WAIT };

interface Call {
  method: string;
  url: string;
  body?: unknown;
  status?: number;
  json?: unknown;
}

/** Records every fetch the page makes (request, then the response's JSON) without changing it. */
function recordFetch(): { calls: Call[]; restore(): void } {
  const original = window.fetch;
  const calls: Call[] = [];
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const call: Call = {
      method: (init?.method ?? 'GET').toUpperCase(),
      url: String(input instanceof Request ? input.url : input),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    const response = await original(input, init);
    call.status = response.status;
    call.json = await response.clone().json().catch(() => undefined);
    return response;
  };
  return { calls, restore: () => void (window.fetch = original) };
}

const channelPosts = (calls: Call[]) => calls.filter((c) => c.method === 'POST' && c.url.endsWith('/channels'));

async function ownedChannelCount(): Promise<number> {
  const response = await fetch('/svc/library', { headers: { 'X-Svc-Request': '1' } });
  expect(response.status).to.equal(200);
  const { items } = (await response.json()) as { items: { type: string }[] };
  return items.filter((item) => item.type === 'channel').length;
}

function $<T extends Element = HTMLElement>(el: SvcChannelSetup, selector: string): T {
  const found = el.shadowRoot!.querySelector<T>(selector);
  if (!found) throw new Error(`nothing matches ${selector}`);
  return found;
}

const active = (el: SvcChannelSetup) => el.shadowRoot!.activeElement as HTMLElement | null;
const valueText = (el: SvcChannelSetup, key: string) => $(el, `#value-${key}`).textContent!.trim();

async function setup(): Promise<SvcChannelSetup> {
  const el = await fixture<SvcChannelSetup>(html`<svc-channel-setup></svc-channel-setup>`);
  // The relay's settings arrive before the form is used.
  await waitUntil(() => el.shadowRoot!.querySelectorAll('input[type="radio"]').length === 3, 'regions shown', {
    timeout: NETWORK_WAIT,
  });
  return el;
}

/** Fills the form through its controls, as a user would, and submits it with the button. */
async function fillAndSubmit(
  el: SvcChannelSetup,
  values: { title: string; description: string; region: string; count: string },
): Promise<void> {
  const type = (selector: string, value: string) => {
    const input = $<HTMLInputElement | HTMLTextAreaElement>(el, selector);
    input.value = value;
    input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
  };
  type('#title', values.title);
  type('#description', values.description);
  $<HTMLInputElement>(el, `input[type="radio"][value="${values.region}"]`).click();
  type('#renditions', values.count);
  await el.updateComplete;
  $<HTMLButtonElement>(el, 'button[type="submit"]').click();
}

function decodeWithTheBrowser(code: string): string {
  const area = document.createElement('textarea');
  area.innerHTML = code;
  return area.value;
}

describe('<svc-channel-setup>', () => {
  let env: Awaited<ReturnType<typeof testEnv>>;
  before(async () => {
    env = await testEnv();
    await executeServerCommand('svc-channel-setup-grant-clipboard');
  });

  it('shows a form whose region choices have human labels and whose rendition field explains the rules', async () => {
    const el = await setup();
    const labels = [...el.shadowRoot!.querySelectorAll('input[type="radio"]')].map((radio) =>
      radio.closest('label')!.textContent!.trim(),
    );
    expect(labels).to.deep.equal(['North America', 'Asia-Pacific', 'Europe']);
    const count = $<HTMLInputElement>(el, '#renditions');
    expect([count.min, count.max]).to.deep.equal(['1', '5']);
    const hint = el.shadowRoot!.getElementById(count.getAttribute('aria-describedby')!)!.textContent!;
    expect(hint).to.contain('must stream every rendition');
    expect(hint).to.contain('can never be changed later');
    expect(el.getAttribute('state')).to.equal('editing');
  });

  for (const region of ['north_america', 'asia_pacific', 'europe'] as Region[]) {
    it(`creates a channel in ${region} and shows and copies that region's exact settings`, async () => {
      const el = await setup();
      const spy = recordFetch();
      const errors: SvcErrorDetail[] = [];
      el.addEventListener('svc-error', (event) => errors.push(event.detail));
      try {
        const created = oneEvent(el, 'svc-channel-create');
        await fillAndSubmit(el, { title: `Live ${region}`, description: 'Test channel', region, count: '2' });
        const { detail } = (await created) as CustomEvent<PublicChannel>;

        const [post] = channelPosts(spy.calls);
        expect(post!.body).to.deep.equal({
          title: `Live ${region}`,
          description: 'Test channel',
          region,
          rendition_count: 2,
        });
        expect(post!.status).to.equal(201);
        const relayChannel = post!.json as Channel;
        expect(detail.id).to.equal(relayChannel.id);
        expect(detail.config.publishing_point_primary).to.equal(relayChannel.config.publishing_point_primary);
        expect(detail.config.publishing_point_backup).to.equal(relayChannel.config.publishing_point_backup);

        await el.updateComplete;
        expect(el.getAttribute('state')).to.equal('created');
        expect(valueText(el, 'id')).to.equal(relayChannel.id);
        expect(valueText(el, 'primary')).to.equal(relayChannel.config.publishing_point_primary);
        expect(valueText(el, 'backup')).to.equal(relayChannel.config.publishing_point_backup);
        expect(valueText(el, 'stream-key')).to.equal(relayChannel.config.stream_name);
        expect(relayChannel.config.publishing_point_primary).to.match(/^rtmp:\/\//);
        expect(relayChannel.config.publishing_point_primary).to.not.equal(relayChannel.config.publishing_point_backup);
        expect($(el, '[part="summary"]').textContent).to.contain(
          { north_america: 'North America', asia_pacific: 'Asia-Pacific', europe: 'Europe' }[region],
        );
        expect($(el, '[part="summary"]').textContent).to.contain('Renditions: 2');
        expect($(el, '[part="notice"]').textContent).to.contain('will not be shown again');
        expect($(el, '[part="note"]').textContent).to.contain('authentication option');
        const link = $<HTMLAnchorElement>(el, 'a[part="player-link"]');
        expect(link.href).to.equal(relayChannel.share_code.facebook);
        expect(link.href.startsWith(env.player_url)).to.equal(true);

        // Every copy button puts the exact value on the clipboard and confirms it.
        await waitUntil(() => $<HTMLTextAreaElement>(el, '#embed-code').value !== '', 'embed code shown', {
      timeout: NETWORK_WAIT,
    });
        const embed = spy.calls.find((c) => c.url.endsWith(`/embed/channel/${relayChannel.id}/javascript`));
        const expected: Record<string, string> = {
          id: relayChannel.id,
          primary: relayChannel.config.publishing_point_primary,
          backup: relayChannel.config.publishing_point_backup!,
          'stream-key': relayChannel.config.stream_name,
          login: relayChannel.config.login,
          password: relayChannel.config.password,
          'player-link': relayChannel.share_code.facebook,
          embed: decodeWithTheBrowser((embed!.json as { code: string }).code),
        };
        expect(expected.embed).to.contain(`contentId=${env.account_id}-live-${relayChannel.id}`);
        expect($<HTMLTextAreaElement>(el, '#embed-code').value).to.equal(expected.embed);
        const buttons = [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('button[data-copy]')];
        expect(buttons.map((b) => b.dataset.copy).sort()).to.deep.equal(Object.keys(expected).sort());
        /** Where every setting's parts are: the "Copied" confirmation must not move any of them. */
        const layout = () =>
          [...el.shadowRoot!.querySelectorAll<HTMLElement>('[part="setting"] dd > *, [part="setting"]')]
            .filter((node) => !node.matches('.copied'))
            .map((node) => JSON.stringify(node.getBoundingClientRect()));
        for (const button of buttons) {
          const key = button.dataset.copy!;
          await navigator.clipboard.writeText('');
          const before = layout();
          button.click();
          await waitUntil(() => button.nextElementSibling?.matches('[part="copied"]'), `${key} confirmed`, WAIT);
          expect(getComputedStyle(button.nextElementSibling!).visibility).to.equal('visible');
          expect(layout(), `${key}: "Copied" moved nothing`).to.deep.equal(before);
          expect(await navigator.clipboard.readText()).to.equal(expected[key]);
          const label = button.getAttribute('aria-label')!.replace(/^Copy /, '');
          await waitUntil(
            () => $(el, '[role="status"]').textContent!.trim() === `${label} copied to the clipboard.`,
            `${key} announced`,
            WAIT,
          );
        }
        expect(errors).to.deep.equal([]);
      } finally {
        spy.restore();
      }
    });
  }

  it('gives each region its own ingest addresses', async () => {
    const addresses = new Set<string>();
    for (const region of ['north_america', 'asia_pacific', 'europe']) {
      const el = await setup();
      const created = oneEvent(el, 'svc-channel-create');
      await fillAndSubmit(el, { title: `Region ${region}`, description: '', region, count: '1' });
      const { detail } = (await created) as CustomEvent<PublicChannel>;
      addresses.add(detail.config.publishing_point_primary).add(detail.config.publishing_point_backup!);
    }
    expect(addresses.size).to.equal(6);
  });

  it('keeps the credentials out of the event, the host and the storage', async () => {
    localStorage.clear();
    sessionStorage.clear();
    const el = await setup();
    const spy = recordFetch();
    try {
      const created = oneEvent(el, 'svc-channel-create');
      await fillAndSubmit(el, { title: 'Secret keeper', description: 'x', region: 'europe', count: '3' });
      const { detail } = (await created) as CustomEvent<PublicChannel>;
      const relayChannel = channelPosts(spy.calls)[0]!.json as Channel;
      const secrets = [relayChannel.config.login, relayChannel.config.password, relayChannel.config.stream_name];
      expect(secrets.every((secret) => typeof secret === 'string' && secret.length > 0)).to.equal(true);

      expect(detail.config).to.not.have.any.keys('login', 'password', 'stream_name');
      expect(detail).to.not.have.key('password');
      expect(el.channel).to.deep.equal(detail);
      const serialized = JSON.stringify(detail);
      for (const secret of secrets) expect(serialized).to.not.contain(secret);

      // Reveal both, so that the secrets are in the DOM while storage is checked.
      for (const button of el.shadowRoot!.querySelectorAll<HTMLButtonElement>('[part="reveal-button"]')) button.click();
      await el.updateComplete;
      expect(valueText(el, 'password')).to.equal(relayChannel.config.password);
      const stored = [localStorage, sessionStorage].flatMap((storage) =>
        Object.keys(storage).flatMap((key) => [key, storage.getItem(key)!]),
      );
      const attributes = [...el.attributes].map((attribute) => attribute.value);
      for (const secret of secrets) {
        expect(stored.join('\n')).to.not.contain(secret);
        expect(attributes.join('\n')).to.not.contain(secret);
        expect(document.cookie).to.not.contain(secret);
      }

      // "Create another channel" forgets them.
      $<HTMLButtonElement>(el, '[part="another-button"]').click();
      await el.updateComplete;
      expect(el.getAttribute('state')).to.equal('editing');
      expect(el.channel).to.equal(undefined);
      expect(el.shadowRoot!.innerHTML).to.not.contain(relayChannel.config.password);
      expect(active(el)?.id).to.equal('title');
    } finally {
      spy.restore();
    }
  });

  it('masks the login and password until the reveal toggles are pressed', async () => {
    const el = await setup();
    const spy = recordFetch();
    try {
      const created = oneEvent(el, 'svc-channel-create');
      await fillAndSubmit(el, { title: 'Masked', description: '', region: 'north_america', count: '1' });
      await created;
      const { config } = channelPosts(spy.calls)[0]!.json as Channel;
      for (const [key, value] of [['login', config.login], ['password', config.password]] as const) {
        const toggle = $<HTMLButtonElement>(el, `[data-reveal="${key}"]`);
        const label = key === 'login' ? 'Login' : 'Password';
        expect(toggle.getAttribute('aria-pressed')).to.equal('false');
        expect(toggle.textContent!.trim()).to.equal('Show');
        expect(toggle.getAttribute('aria-label')).to.match(/^Show /);
        expect(valueText(el, key)).to.not.contain(value);
        toggle.click();
        await el.updateComplete;
        expect(toggle.getAttribute('aria-pressed')).to.equal('true');
        expect(toggle.textContent!.trim()).to.equal('Hide');
        expect(toggle.getAttribute('aria-label')).to.match(/^Hide /);
        expect(toggle.getAttribute('aria-label')!.toLowerCase()).to.contain(label.toLowerCase());
        expect(valueText(el, key)).to.equal(value);
        toggle.click();
        await el.updateComplete;
        expect(toggle.getAttribute('aria-pressed')).to.equal('false');
        expect(toggle.textContent!.trim()).to.equal('Show');
        expect(valueText(el, key)).to.not.contain(value);
      }
    } finally {
      spy.restore();
    }
  });

  for (const count of ['0', '6', '2.5', '']) {
    it(`blocks a rendition count of "${count}" with a message and sends nothing`, async () => {
      const el = await setup();
      const before = await ownedChannelCount();
      const spy = recordFetch();
      try {
        await fillAndSubmit(el, { title: 'Too many', description: '', region: 'europe', count });
        await el.updateComplete;
        const input = $<HTMLInputElement>(el, '#renditions');
        expect(input.getAttribute('aria-invalid')).to.equal('true');
        const message = $(el, '#renditions-error');
        expect(message.textContent!.trim()).to.equal('Enter a whole number from 1 to 5.');
        expect(input.getAttribute('aria-describedby')!.split(' ')).to.include('renditions-error');
        expect(active(el)).to.equal(input);
        expect(channelPosts(spy.calls)).to.have.length(0);
      } finally {
        spy.restore();
      }
      expect(await ownedChannelCount()).to.equal(before);
      expect(el.getAttribute('state')).to.equal('editing');
    });
  }

  it('marks the fields the relay refuses (400) in the viewer’s words when invalid values are forced past the form', async () => {
    const el = await setup();
    el.novalidate = true;
    const spy = recordFetch();
    try {
      const failed = oneEvent(el, 'svc-error');
      el.channelTitle = 'Forced';
      el.region = 'mars';
      el.renditionCount = 9;
      await el.updateComplete;
      $<HTMLButtonElement>(el, 'button[type="submit"]').click();
      const { detail } = (await failed) as CustomEvent<SvcErrorDetail>;
      expect(detail.code).to.equal('validation_failed');

      const [post] = channelPosts(spy.calls);
      expect(post!.status).to.equal(400);
      const relayError = (post!.json as { error: { fields: Record<string, string> } }).error;
      expect(Object.keys(relayError.fields).sort()).to.deep.equal(['region', 'rendition_count']);
      await el.updateComplete;
      // The element's own messages for the fields the relay named, never the relay's English sentences.
      expect($(el, '#renditions-error').textContent!.trim()).to.equal('Enter a whole number from 1 to 5.');
      expect($(el, '#renditions').getAttribute('aria-invalid')).to.equal('true');
      expect($(el, '#region-error').textContent!.trim()).to.equal('Choose one of the regions.');
      expect($(el, 'fieldset').getAttribute('aria-describedby')).to.contain('region-error');
      expect($(el, '#title').getAttribute('aria-invalid')).to.equal('false');
      expect($(el, '[role="alert"]').textContent!.trim()).to.equal('The channel was not created: Some values are not valid.');
      for (const sentence of [...Object.values(relayError.fields), detail.message]) {
        expect(el.shadowRoot!.textContent).to.not.contain(sentence);
      }
      expect(active(el)).to.equal($(el, 'input[type="radio"]'));
      expect($<HTMLButtonElement>(el, 'button[type="submit"]').disabled).to.equal(false);
      expect(el.getAttribute('state')).to.equal('editing');
      await expect(el).to.be.accessible();
    } finally {
      spy.restore();
    }
  });

  it('shows the relay’s failure when the service fails, and fires svc-error', async () => {
    const el = await setup();
    await control('/faults', { origin: 'api', method: 'POST', path: '/v2/channel', status: 500, count: 1 });
    const failed = oneEvent(el, 'svc-error');
    await fillAndSubmit(el, { title: 'Unlucky', description: '', region: 'europe', count: '1' });
    const { detail } = (await failed) as CustomEvent<SvcErrorDetail>;
    expect(detail.code).to.match(/^upstream_/);
    await el.updateComplete;
    const alert = $(el, '[role="alert"]');
    // Shown by its code in the viewer's words; the relay's sentence stays in the event.
    expect(detail.message).to.contain('The service failed');
    expect(alert.textContent!.trim()).to.equal(
      'The channel was not created: The video service is not available right now. Try again later.',
    );
    expect(el.shadowRoot!.textContent).to.not.contain(detail.message);
    expect(el.shadowRoot!.querySelector('[part="panel"]')).to.equal(null);
    expect(active(el)).to.equal($(el, 'button[type="submit"]'));
  });

  it('keeps the panel and says so when the embed code cannot be loaded', async () => {
    const el = await setup();
    // count 0: until reset, so that the preview player's request for the same code fails too.
    await control('/faults', { origin: 'api', method: 'GET', path: '/v2/channel/', status: 500, count: 0 });
    try {
      const errors: SvcErrorDetail[] = [];
      el.addEventListener('svc-error', (event) => errors.push(event.detail));
      const created = oneEvent(el, 'svc-channel-create');
      await fillAndSubmit(el, { title: 'No embed', description: '', region: 'europe', count: '1' });
      const { detail } = (await created) as CustomEvent<PublicChannel>;
      await waitUntil(() => el.shadowRoot!.querySelector('.embed [role="alert"]'), 'embed failure shown', {
        timeout: NETWORK_WAIT,
      });
      expect($(el, '.embed [role="alert"]').textContent).to.contain('The embed code could not be loaded');
      expect(errors.some((error) => error.code.startsWith('upstream_'))).to.equal(true);
      expect(el.shadowRoot!.querySelector('button[data-copy="embed"]')).to.equal(null);
      expect(valueText(el, 'primary')).to.equal(detail.config.publishing_point_primary);
      await expect(el).to.be.accessible();
    } finally {
      await control('/reset', {});
    }
  });

  it('reports settings it cannot load and keeps the standard choices', async () => {
    const errors: SvcErrorDetail[] = [];
    const el = await fixture<SvcChannelSetup>(html`<svc-channel-setup
      relay="/no-relay-here"
      @svc-error=${(event: CustomEvent<SvcErrorDetail>) => errors.push(event.detail)}
    ></svc-channel-setup>`);
    await waitUntil(() => errors.length === 1, 'svc-error fired', { timeout: NETWORK_WAIT });
    await el.updateComplete;
    expect(el.shadowRoot!.textContent).to.contain('The settings could not be loaded');
    expect(el.shadowRoot!.querySelectorAll('input[type="radio"]')).to.have.length(3);
    expect($<HTMLInputElement>(el, '#renditions').max).to.equal('5');
  });

  it('disables the create button while the channel is being created', async () => {
    const el = await setup();
    await control('/faults', { origin: 'api', method: 'POST', path: '/v2/channel', latency_ms: 400, count: 1 });
    const created = oneEvent(el, 'svc-channel-create');
    await fillAndSubmit(el, { title: 'Slow', description: '', region: 'europe', count: '1' });
    await el.updateComplete;
    const submit = $<HTMLButtonElement>(el, 'button[type="submit"]');
    expect(submit.disabled).to.equal(true);
    expect(el.getAttribute('state')).to.equal('creating');
    expect($(el, 'form').getAttribute('aria-busy')).to.equal('true');
    await created;
  });

  it('shows a live preview player for the new channel', async () => {
    const el = await setup();
    const created = oneEvent(el, 'svc-channel-create');
    await fillAndSubmit(el, { title: 'Preview', description: '', region: 'asia_pacific', count: '1' });
    const { detail } = (await created) as CustomEvent<PublicChannel>;
    await el.updateComplete;
    const player = $(el, 'svc-player');
    expect(player.getAttribute('kind')).to.equal('channel');
    expect(player.getAttribute('content-id')).to.equal(detail.id);
    expect(customElements.get('svc-player'), 'svc-player is registered once the panel has loaded').to.not.equal(undefined);
    // The player embeds the local service's channel player page (the iframe variant, since a
    // player script cannot find itself inside this element's shadow root).
    expect(player.getAttribute('variant')).to.equal('iframe');
    // The test stack runs the observed profile: the iframe is on the service's iframe origin.
    const config = (await (await fetch('/svc/config')).json()) as { iframe_origins: string[] };
    const iframeOrigin = config.iframe_origins.find((origin) => origin !== new URL(env.player_url).origin)!;
    const frame = await waitUntilFound(() => player.querySelector<HTMLIFrameElement>(`iframe[src^="${iframeOrigin}/live/"]`));
    expect(new URL(frame.src).pathname).to.equal(`/live/${env.account_id}/${detail.id}`);
    expect(frame.title, 'the iframe is named for screen readers').to.not.equal('');
    // The local service's channel never streams: the preview keeps saying it waits for the encoder.
    const waiting = $(el, '[part~="waiting"]');
    expect(waiting.textContent!.trim()).to.equal('Waiting for the encoder…');
    const at = waiting.getBoundingClientRect();
    const box = player.getBoundingClientRect();
    expect(at.height > 0 && at.top >= box.top && at.bottom <= box.bottom, 'shown over the preview').to.equal(true);
    // Once the player reports a video (the stream plays: svc-player sets has-video), the line goes.
    player.toggleAttribute('has-video', true);
    expect(waiting.getBoundingClientRect().height).to.equal(0);
  });

  it('works with the keyboard alone: tab, type, choose, submit with Enter, reveal and copy', async () => {
    const el = await setup();
    const spy = recordFetch();
    try {
      await sendKeys({ press: 'Tab' });
      expect(active(el)?.id).to.equal('title');
      await sendKeys({ type: 'Keyboard channel' });
      await sendKeys({ press: 'Tab' });
      expect(active(el)?.id).to.equal('description');
      await sendKeys({ type: 'Typed' });
      await sendKeys({ press: 'Tab' });
      expect((active(el) as HTMLInputElement).value).to.equal('north_america');
      await sendKeys({ press: 'ArrowRight' });
      expect((active(el) as HTMLInputElement).value).to.equal('asia_pacific');
      expect((active(el) as HTMLInputElement).checked).to.equal(true);
      await sendKeys({ press: 'Tab' });
      expect(active(el)?.id).to.equal('renditions');
      await sendKeys({ press: 'Backspace' });
      await sendKeys({ type: '4' });
      const created = oneEvent(el, 'svc-channel-create');
      await sendKeys({ press: 'Enter' });
      await created;
      expect(channelPosts(spy.calls)[0]!.body).to.deep.equal({
        title: 'Keyboard channel',
        description: 'Typed',
        region: 'asia_pacific',
        rendition_count: 4,
      });
      const { config } = channelPosts(spy.calls)[0]!.json as Channel;
      await el.updateComplete;
      expect(active(el)?.id).to.equal('created-heading');

      const reveal = $<HTMLButtonElement>(el, '[data-reveal="password"]');
      for (let i = 0; i < 30 && active(el) !== reveal; i++) await sendKeys({ press: 'Tab' });
      expect(active(el)).to.equal(reveal);
      await sendKeys({ press: ' ' });
      await el.updateComplete;
      expect(reveal.getAttribute('aria-pressed')).to.equal('true');
      expect(valueText(el, 'password')).to.equal(config.password);

      await sendKeys({ press: 'Tab' });
      expect(active(el)?.dataset.copy).to.equal('password');
      await navigator.clipboard.writeText('');
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => el.shadowRoot!.querySelector('[data-setting="password"] [part="copied"]'), 'copied', WAIT);
      expect(await navigator.clipboard.readText()).to.equal(config.password);

      const another = $<HTMLButtonElement>(el, '[part="another-button"]');
      for (let i = 0; i < 30 && active(el) !== another; i++) await sendKeys({ press: 'Tab' });
      expect(active(el)).to.equal(another);
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => active(el)?.id === 'title', 'focus back on the title', WAIT);
    } finally {
      spy.restore();
    }
  });

  it('copies with the textarea fallback when the Clipboard API refuses', async () => {
    const el = await setup();
    const created = oneEvent(el, 'svc-channel-create');
    await fillAndSubmit(el, { title: 'Fallback', description: '', region: 'europe', count: '1' });
    const { detail } = (await created) as CustomEvent<PublicChannel>;
    await el.updateComplete;
    const clipboard = navigator.clipboard;
    let refused = 0;
    clipboard.writeText = () => {
      refused += 1;
      return Promise.reject(new DOMException('Refused for the test', 'NotAllowedError'));
    };
    try {
      const button = $<HTMLButtonElement>(el, 'button[data-copy="primary"]');
      button.focus();
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => button.nextElementSibling?.matches('[part="copied"]'), 'confirmed', WAIT);
      expect(refused).to.equal(1);
      expect(await clipboard.readText()).to.equal(detail.config.publishing_point_primary);
      expect(active(el)).to.equal(button);
    } finally {
      delete (clipboard as Partial<Clipboard>).writeText;
    }
  });

  it('lets every visible string be replaced', async () => {
    const el = await fixture<SvcChannelSetup>(html`<svc-channel-setup
      .strings=${{ submit: 'Go live', regionEurope: 'Europa', titleLabel: 'Name' }}
    ></svc-channel-setup>`);
    await waitUntil(() => el.shadowRoot!.querySelectorAll('input[type="radio"]').length === 3, 'regions shown', {
      timeout: NETWORK_WAIT,
    });
    expect($(el, 'button[type="submit"]').textContent!.trim()).to.equal('Go live');
    expect($(el, 'label[for="title"]').textContent!.trim()).to.equal('Name');
    expect($(el, 'input[value="europe"]').closest('label')!.textContent!.trim()).to.equal('Europa');
    expect($(el, 'input[value="north_america"]').closest('label')!.textContent!.trim()).to.equal('North America');
  });

  it('has no axe violation in the form, error and panel states', async () => {
    const el = await setup();
    await expect(el).to.be.accessible();

    await fillAndSubmit(el, { title: '', description: '', region: 'europe', count: '7' });
    await el.updateComplete;
    expect($(el, '#title-error').textContent).to.contain('Enter a title');
    await expect(el).to.be.accessible();

    const created = oneEvent(el, 'svc-channel-create');
    await fillAndSubmit(el, { title: 'Accessible', description: 'a11y', region: 'europe', count: '5' });
    await created;
    await waitUntil(() => $<HTMLTextAreaElement>(el, '#embed-code').value !== '', 'embed code shown', {
      timeout: NETWORK_WAIT,
    });
    for (const button of el.shadowRoot!.querySelectorAll<HTMLButtonElement>('[part="reveal-button"]')) button.click();
    $<HTMLButtonElement>(el, 'button[data-copy="id"]').click();
    await waitUntil(() => el.shadowRoot!.querySelector('[part="copied"]'), 'copied', WAIT);
    await expect(el).to.be.accessible();
  });
});

async function waitUntilFound<T>(find: () => T | null | undefined): Promise<T> {
  let found: T | null | undefined;
  await waitUntil(() => (found = find()) != null, 'element found', { timeout: NETWORK_WAIT });
  return found!;
}
