// <svc-player loading="click">: a poster and a real play button; nothing is asked of the relay or the
// player origin until the viewer activates it (click, Enter, Space); then the player loads as usual
// and is asked to play. Real browser, real relay and local service.
import { expect, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { seedVod, testEnv } from '../../support/browser.js';
import type { SvcPlayer } from '../../../src/elements/svc-player/svc-player.js';
import { mount } from './helpers.js';
import { screenshot } from '../../support/screenshot.js';

type Body = (this: { timeout(ms: number): void }) => unknown;
declare const describe: (name: string, body: () => void) => void;
declare const it: (name: string, body: Body) => void;
declare const before: (body: Body) => void;
declare const afterEach: (body: Body) => void;

let vodId: string;
let playerOrigin: string;
const POSTER = 'data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 width=%2216%22 height=%229%22/%3E';

before(async () => {
  performance.setResourceTimingBufferSize(10_000);
  playerOrigin = new URL((await testEnv()).player_url).origin;
  vodId = (await seedVod()).vod_id;
});

afterEach(() => {
  for (const el of document.querySelectorAll('svc-player')) el.remove();
  for (const link of document.querySelectorAll('link[rel=preconnect]')) link.remove();
});

const playButton = (el: SvcPlayer) => el.shadowRoot!.querySelector<HTMLButtonElement>('button[part~=play]');

/** The play button, once its chunk has loaded (a player with loading="click" fetches it on first render). */
async function shown(el: SvcPlayer): Promise<HTMLButtonElement> {
  await waitUntil(() => playButton(el), 'the play button shows', { timeout: 5000 });
  return playButton(el)!;
}

/**
 * Requests to the relay's API or the player origin made since `since` (resource timing sees every
 * kind); not the elements' own code, which on the script-tag path the relay serves too (/svc/<file>.js).
 */
function requestsSince(since: number): string[] {
  return performance
    .getEntriesByType('resource')
    .filter((entry) => entry.startTime >= since)
    .map((entry) => new URL(entry.name))
    .filter((url) => (url.pathname.startsWith('/svc/') && !/^\/svc\/[\w.-]+\.js$/.test(url.pathname)) || url.origin === playerOrigin)
    .map((url) => url.href);
}

/** Records calls of HTMLMediaElement#play (the player's <video> being asked to play). */
function spyPlay(): { calls: HTMLMediaElement[]; restore(): void } {
  const original = HTMLMediaElement.prototype.play;
  const calls: HTMLMediaElement[] = [];
  HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
    calls.push(this);
    return original.call(this);
  };
  return { calls, restore: () => void (HTMLMediaElement.prototype.play = original) };
}

describe('<svc-player loading="click">', () => {
  it('shows a named play button over the poster and requests nothing, even on hover and focus', async () => {
    const since = performance.now();
    const { el } = mount({ 'content-id': vodId, loading: 'click', title: 'Cats at play', poster: POSTER, 'player-origin': playerOrigin });
    const button = await shown(el);
    expect(button, 'a real button').to.be.instanceOf(HTMLButtonElement);
    expect(button.getAttribute('aria-label')).to.equal('Play Cats at play');
    expect(el.shadowRoot!.querySelector<HTMLImageElement>('img[part~=poster]')!.getAttribute('src')).to.equal(POSTER);
    expect(el.getBoundingClientRect().height, 'the box is reserved').to.be.greaterThan(0);
    button.dispatchEvent(new PointerEvent('pointerenter'));
    button.focus();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(requestsSince(since)).to.deep.equal([]);
    expect(el.state).to.equal('idle');
    expect(el.querySelector('[slot=player]'), 'no player injected').to.equal(null);
    // No player of the page has asked the relay's config yet: the origin is not known, nothing to open.
    expect(document.querySelectorAll('link[rel=preconnect]').length).to.equal(0);
  });

  it('opens a connection on hover to the player origin of the relay’s config once a player of the page has it', async () => {
    const first = mount({ 'content-id': vodId, loading: 'eager' });
    await first.ready;
    const { el } = mount({ 'content-id': vodId, loading: 'click', 'player-origin': playerOrigin });
    const since = performance.now();
    (await shown(el)).dispatchEvent(new PointerEvent('pointerenter'));
    expect([...document.querySelectorAll<HTMLLinkElement>('link[rel=preconnect]')].map((link) => link.href)).to.deep.equal([`${playerOrigin}/`]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(requestsSince(since).filter((url) => url.includes('/svc/')), 'the relay was not asked again').to.deep.equal([]);
  });

  it('without a poster, shows a visible play button (a white ring on the black box) and the title', async () => {
    const parent = document.createElement('div');
    parent.id = 'click-no-poster';
    parent.style.width = '480px';
    document.body.append(parent);
    try {
      const { el } = mount({ 'content-id': vodId, loading: 'click', title: 'Harbour at dawn' }, { parent });
      await shown(el);
      const caption = el.shadowRoot!.querySelector<HTMLElement>('[part~=caption]')!;
      expect(caption.textContent).to.equal('Harbour at dawn');
      const box = el.getBoundingClientRect();
      const at = caption.getBoundingClientRect();
      expect(at.height, 'the title is shown').to.be.greaterThan(10);
      expect(at.top >= box.top && at.bottom <= box.bottom, 'inside the box').to.equal(true);
      // On the pixels: just outside the dark circle, all around it, the ring is light on the black box.
      const circle = el.shadowRoot!.querySelector('.play')!.getBoundingClientRect();
      const picture = await screenshot('#click-no-poster');
      const { pixels, scale, box: shot } = picture;
      const [cx, cy, r] = [circle.left + circle.width / 2 - shot.left, circle.top + circle.height / 2 - shot.top, circle.width / 2];
      /** The lightest of the pixels across the 3 px ring's width at `angle` (anti-aliasing blurs its edges). */
      const lightest = (angle: number) =>
        Math.max(
          ...[0.5, 1.5, 2.5].map((out) => {
            const x = Math.round((cx + (r + out) * Math.cos(angle)) * scale);
            const y = Math.round((cy + (r + out) * Math.sin(angle)) * scale);
            const i = (y * pixels.width + x) * 4;
            return Math.min(pixels.data[i]!, pixels.data[i + 1]!, pixels.data[i + 2]!);
          }),
        );
      const dark: number[] = [];
      for (let step = 0; step < 12; step++) if (lightest((step * Math.PI) / 6) < 160) dark.push(step);
      expect(dark, 'ring samples that are dark').to.deep.equal([]);
    } finally {
      parent.remove();
    }
  });

  it('names the button "Play video" without a title, and shows a slotted poster instead of the attribute', async () => {
    const { el } = mount({ 'content-id': vodId, loading: 'click' });
    const img = document.createElement('img');
    img.slot = 'poster';
    img.alt = '';
    img.src = POSTER;
    el.append(img);
    expect((await shown(el)).getAttribute('aria-label')).to.equal('Play video');
    const slot = el.shadowRoot!.querySelector<HTMLSlotElement>('slot[name=poster]')!;
    expect(slot.assignedElements()).to.deep.equal([img]);
  });

  it('loads on click, injects the player and asks it to play', async () => {
    const played = spyPlay();
    try {
      const since = performance.now();
      const { el, ready } = mount({ 'content-id': vodId, loading: 'click', title: 'Clip' });
      const button = await shown(el);
      expect(requestsSince(since)).to.deep.equal([]);
      button.click();
      const detail = await ready;
      expect(detail.element.tagName).to.equal('SCRIPT');
      expect(playButton(el), 'the facade is gone').to.equal(null);
      await waitUntil(() => played.calls.length > 0, 'the player video was asked to play', { timeout: 10_000 });
      expect(el.contains(played.calls[0]!), 'the video of this player').to.equal(true);
      expect(requestsSince(since).some((url) => url.includes(`/svc/embed/vod/${vodId}/`))).to.equal(true);
    } finally {
      played.restore();
    }
  });

  for (const key of ['Enter', ' '] as const) {
    it(`activates from the keyboard (${key === ' ' ? 'Space' : key})`, async () => {
      const { el, ready } = mount({ 'content-id': vodId, loading: 'click' });
      (await shown(el)).focus();
      await sendKeys({ press: key }); // ' ' for Space: Firefox's driver does not know that name
      const detail = await ready;
      expect(detail.contentId).to.equal(vodId);
      expect(el.state).to.equal('ready');
    });
  }

  it('keeps the keyboard focus in the player when its play button goes (on the stage, then the loaded player)', async () => {
    const { el, ready } = mount({ 'content-id': vodId, loading: 'click' });
    (await shown(el)).focus();
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect(playButton(el), 'the play button went').to.equal(null);
    expect(document.activeElement, 'the focus stays on the element').to.equal(el);
    expect(el.shadowRoot!.activeElement?.getAttribute('part')).to.equal('stage');
    await ready;
    expect(document.activeElement, 'and once the player is ready').to.equal(el);
  });

  it('loads once when activate() comes before its first update', async () => {
    // The player's code all on the page (another player loaded), so that nothing waits for a download.
    const first = mount({ 'content-id': vodId, loading: 'click' });
    await shown(first.el);
    first.el.activate();
    await first.ready;
    const other = (await seedVod()).vod_id;
    const original = window.fetch;
    const asked: string[] = [];
    window.fetch = (input, init) => {
      asked.push(input instanceof Request ? input.url : String(input));
      return original(input, init);
    };
    try {
      const { el, ready } = mount({ 'content-id': other, loading: 'click' });
      el.activate();
      await ready;
    } finally {
      window.fetch = original;
    }
    expect(asked.filter((url) => url.includes(`/svc/embed/vod/${other}/`))).to.have.length(1);
  });

  it('shows no play button for a player asked for before its first update, and shows it once its content changes', async () => {
    const { el, ready } = mount({ 'content-id': vodId, loading: 'click' });
    el.activate();
    const buttons: number[] = [];
    const count = () => buttons.push(el.shadowRoot!.querySelectorAll('[part=play]').length);
    const watch = new MutationObserver(count);
    watch.observe(el.shadowRoot!, { childList: true, subtree: true });
    await ready;
    watch.disconnect();
    expect(buttons.filter((n) => n > 0)).to.deep.equal([]);
    // Other content: the viewer has not asked for it, its play button shows.
    el.setAttribute('content-id', (await seedVod()).vod_id);
    await shown(el);
    expect(el.state).to.equal('idle');
  });

  it('loads the new content when activate() or play() comes right after a content change', async () => {
    const readyFor = (el: SvcPlayer) => new Promise<string>((resolve) => el.addEventListener('svc-player-ready', (event) => resolve(event.detail.contentId), { once: true }));
    // A player playing one video, given another, then activate() in the same task.
    const { el, ready } = mount({ 'content-id': vodId, loading: 'click' });
    await shown(el);
    el.activate();
    await ready;
    const second = (await seedVod()).vod_id;
    let next = readyFor(el);
    el.setAttribute('content-id', second);
    el.activate();
    expect(await next).to.equal(second);
    // A player the viewer never asked for, given other content, then activate(), or play().
    for (const ask of ['activate', 'play'] as const) {
      const { el: idle } = mount({ 'content-id': vodId, loading: 'click', muted: '' });
      await shown(idle);
      const other = (await seedVod()).vod_id;
      next = readyFor(idle);
      idle.setAttribute('content-id', other);
      if (ask == 'play') {
        idle.muted = true;
        await idle.play();
      } else idle.activate();
      expect(await next, ask).to.equal(other);
      idle.remove();
    }
    // play() then pause() in the same task: AbortError, and the load play() started goes on, as a media element's.
    const { el: paused } = mount({ 'content-id': vodId, loading: 'click' });
    await shown(paused);
    next = readyFor(paused);
    paused.setAttribute('content-id', second);
    const played = paused.play();
    paused.pause();
    const error = await played.then(() => undefined, (reason: unknown) => reason);
    expect((error as DOMException).name).to.equal('AbortError');
    expect(await next).to.equal(second);
    expect(paused.paused, 'the cancelled play() does not play it').to.equal(true);
  });

  it('shows the play button again for other content, and activate() loads without a click', async () => {
    const { el, ready } = mount({ 'content-id': vodId, loading: 'click' });
    await shown(el);
    el.activate();
    await ready;
    el.setAttribute('content-id', `${vodId}`.replace(/.$/, (d) => String((Number(d) + 1) % 10)));
    expect(await shown(el), 'new content waits for the viewer').to.be.instanceOf(HTMLButtonElement);
    expect(el.querySelector('[slot=player]')).to.equal(null);
  });
});
