// <svc-player> skinned by the real media-chrome package: its controller takes the element as its
// media (slot="media") and its own controls play, pause, seek, show the time and mute the injected
// player's <video>. Real browsers, real relay and local service.
import { expect, waitUntil } from '@open-wc/testing';
import 'media-chrome';
import { seedVod } from '../../support/browser.js';
import type { SvcPlayer } from '../../../src/elements/svc-player/svc-player.js';
import './helpers.js'; // registers <svc-player>

type Body = (this: { timeout(ms: number): void }) => unknown;
declare const describe: (name: string, body: () => void) => void;
declare const it: (name: string, body: Body) => void;
declare const before: (body: Body) => void;
declare const afterEach: (body: Body) => void;

let vodId: string;

before(async () => {
  vodId = (await seedVod()).vod_id;
});

afterEach(() => {
  for (const node of document.querySelectorAll('media-controller')) node.remove();
});

/** A media-chrome player around `<svc-player>`, as a page writes it. */
function mediaChromePlayer(attributes: Record<string, string>): { controller: HTMLElement; el: SvcPlayer; ready: Promise<unknown> } {
  const controller = document.createElement('media-controller');
  const el = document.createElement('svc-player');
  el.slot = 'media';
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  const ready = new Promise((resolve, reject) => {
    el.addEventListener('svc-player-ready', resolve, { once: true });
    el.addEventListener('svc-error', (event) => reject(new Error(event.detail.code)), { once: true });
  });
  const bar = document.createElement('media-control-bar');
  for (const tag of ['media-play-button', 'media-time-range', 'media-time-display', 'media-mute-button']) {
    bar.append(document.createElement(tag));
  }
  bar.querySelector('media-time-display')!.setAttribute('showduration', '');
  controller.append(el, bar);
  document.body.append(controller);
  return { controller, el, ready };
}

const control = (controller: HTMLElement, tag: string) => controller.querySelector<HTMLElement>(tag)!;
/** What the time display shows (in its shadow root), e.g. `0:01 / 0:02`. */
const shownTime = (controller: HTMLElement) => control(controller, 'media-time-display').shadowRoot!.querySelector('slot')!.textContent!.replace(/\s+/g, ' ').trim();

describe('<svc-player> in media-chrome', () => {
  it('plays, pauses, seeks, shows the time and mutes through media-chrome’s own controls', async function () {
    this.timeout(30_000);
    const { controller, el, ready } = mediaChromePlayer({ variant: 'javascript', loading: 'eager', 'content-id': vodId });
    await ready;
    await waitUntil(() => el.querySelector('[slot="player"] video'), 'the player renders its video', { timeout: 10_000 });
    const video = el.querySelector<HTMLVideoElement>('[slot="player"] video')!;
    await waitUntil(() => shownTime(controller).includes('0:02'), 'the display shows the duration', { timeout: 10_000 });
    expect(shownTime(controller)).to.match(/^0:00 \/ 0:02$/);

    control(controller, 'media-mute-button').click();
    await waitUntil(() => video.muted, 'the mute button mutes the video');
    await waitUntil(() => control(controller, 'media-mute-button').getAttribute('mediavolumelevel') == 'off', 'the button shows muted');

    control(controller, 'media-play-button').click();
    await waitUntil(() => !video.paused && video.currentTime > 0.3, 'the play button plays the video', { timeout: 10_000 });
    await waitUntil(() => !control(controller, 'media-play-button').hasAttribute('mediapaused'), 'the button shows playing');

    control(controller, 'media-play-button').click();
    await waitUntil(() => video.paused, 'the play button pauses the video');
    await waitUntil(() => control(controller, 'media-play-button').hasAttribute('mediapaused'), 'the button shows paused');

    // Seek as a viewer dragging the time range does: its own range input, then its input event.
    const range = control(controller, 'media-time-range').shadowRoot!.querySelector<HTMLInputElement>('#range')!;
    range.value = '0.75';
    range.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    await waitUntil(() => Math.abs(video.currentTime - 0.75 * video.duration) < 0.05 && !video.seeking, 'the range seeks the video');
    await waitUntil(() => shownTime(controller).startsWith('0:01 '), 'the display shows the new time');
    expect(video.paused, 'seeking does not play').to.equal(true);

    control(controller, 'media-mute-button').click();
    await waitUntil(() => !video.muted, 'the mute button unmutes the video');
  });
});
