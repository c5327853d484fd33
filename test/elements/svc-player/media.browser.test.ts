// <svc-player> as a media element: the media events of the injected player's <video> on the host,
// `svc-playback` for analytics, play()/pause() and the HTMLMediaElement properties, in real browsers
// against the real relay and the local service's player (which renders a real <video>).
import { expect, waitUntil } from '@open-wc/testing';
import { seedVod } from '../../support/browser.js';
import type { SvcPlayer } from '../../../src/elements/svc-player/svc-player.js';
import type { SvcPlaybackDetail } from '../../../src/elements/svc-player/media-bridge.js';
import { mount, Player, relay, requestedUrls } from './helpers.js';

type Body = (this: { timeout(ms: number): void }) => unknown;
declare const describe: (name: string, body: () => void) => void;
declare const it: (name: string, body: Body) => void;
declare const before: (body: Body) => void;
declare const afterEach: (body: Body) => void;

const EVENTS = [
  'loadedmetadata', 'durationchange', 'play', 'playing', 'pause', 'seeking', 'seeked', 'waiting', 'timeupdate',
  'ratechange', 'volumechange', 'ended', 'error',
];

let vodId: string;
let playlistId: string;

before(async () => {
  vodId = (await seedVod()).vod_id;
  const second = (await seedVod()).vod_id;
  const playlist = await relay<{ id: string }>('POST', '/playlists', { title: 'Media test list', description: 'x' });
  await relay('PUT', `/playlists/${playlist.id}/content`, { items: [{ id: vodId, type: 'vod' }, { id: second, type: 'vod' }] });
  playlistId = playlist.id;
});

afterEach(() => {
  for (const node of document.querySelectorAll('svc-player, body > video')) node.remove();
});

const container = (el: SvcPlayer) => el.querySelector<HTMLElement>(':scope > [slot="player"]')!;

/** The `<video>` the local service's player rendered in the element's container. */
async function playerVideo(el: SvcPlayer): Promise<HTMLVideoElement> {
  await waitUntil(() => el.querySelector('[slot="player"] video'), 'the player renders its video', { timeout: 10_000 });
  return el.querySelector<HTMLVideoElement>('[slot="player"] video')!;
}

/** Records the `svc-playback` events every player of the page fires, as one document listener would. */
function recordPlayback(): { details: SvcPlaybackDetail[]; stop(): void } {
  const details: SvcPlaybackDetail[] = [];
  const listener = (event: HTMLElementEventMap['svc-playback']) => details.push(event.detail);
  document.addEventListener('svc-playback', listener);
  return { details, stop: () => document.removeEventListener('svc-playback', listener) };
}

/** The element's next `event`. */
const next = (el: SvcPlayer, event: string) => new Promise((resolve) => el.addEventListener(event, resolve, { once: true }));

const marks = (details: SvcPlaybackDetail[]) => details.filter((d) => d.type == 'progress').map((d) => d.percent);

describe('<svc-player> as a media element', () => {
  it('answers like an empty media element before it loads, remembers what is set, and play() loads it first', async () => {
    const { el } = mount({ 'content-id': vodId, loading: 'click' });
    await el.updateComplete;
    expect([el.paused, el.ended, el.currentTime, el.readyState, el.muted, el.volume, el.playbackRate]).to.deep.equal([true, false, 0, 0, false, 1, 1]);
    expect(Number.isNaN(el.duration), "duration is NaN").to.equal(true);
    for (const ranges of [el.buffered, el.seekable]) {
      expect(ranges).to.be.instanceOf(TimeRanges);
      expect(ranges.length).to.equal(0);
    }
    el.pause();
    el.muted = true;
    el.volume = 0.5;
    el.playbackRate = 1.5;
    expect([el.muted, el.volume, el.playbackRate]).to.deep.equal([true, 0.5, 1.5]);
    expect(el.state, 'nothing loads before play()').to.equal('idle');
    expect(requestedUrls().some((url) => url.includes(`/svc/embed/vod/${vodId}/`))).to.equal(false);

    await el.play();
    expect(el.state).to.equal('ready');
    const video = await playerVideo(el);
    expect([video.muted, video.volume, video.playbackRate], 'what was set applies to the video').to.deep.equal([true, 0.5, 1.5]);
    expect(el.paused).to.equal(false);
    expect(video.paused).to.equal(false);
    el.pause();
    expect(video.paused, 'pause() pauses the video').to.equal(true);
    expect(el.paused).to.equal(true);
    el.currentTime = 1;
    expect(video.currentTime).to.equal(1);
    expect(el.duration).to.equal(video.duration);
    expect(el.buffered.length).to.equal(video.buffered.length);
  });

  it('pause() cancels a play() still waiting for the player: AbortError, and the video stays paused', async () => {
    const { el, ready } = mount({ 'content-id': vodId, loading: 'click' });
    await el.updateComplete;
    const played = el.play();
    el.pause(); // at once: the load chunk and the player are still on their way
    const error = await played.then(() => undefined, (reason: unknown) => reason);
    expect(error).to.be.instanceOf(DOMException);
    expect((error as DOMException).name).to.equal('AbortError');
    await ready; // the load the play() started goes on
    const video = await playerVideo(el);
    await waitUntil(() => video.readyState >= 1, 'the video has its metadata', { timeout: 10_000 });
    expect([video.paused, el.paused], 'the cancelled play() does not play it').to.deep.equal([true, true]);
    el.muted = true;
    await el.play();
    expect(video.paused, 'a later play() plays').to.equal(false);
  });

  it('refuses before the load what a media element refuses (a volume of 2: IndexSizeError), and keeps what it had', async () => {
    const { el } = mount({ 'content-id': vodId, loading: 'click' });
    await el.updateComplete;
    const thrown = (target: object, name: string, value: unknown) => {
      try {
        Object.assign(target, { [name]: value });
        return undefined;
      } catch (error) {
        return error as Error;
      }
    };
    const volume = thrown(el, 'volume', 2);
    expect(volume).to.be.instanceOf(DOMException);
    expect(volume?.name).to.equal('IndexSizeError');
    const cases = [['volume', -0.5], ['volume', NaN], ['currentTime', NaN], ['currentTime', Infinity], ['playbackRate', NaN], ['playbackRate', -1], ['playbackRate', 100]] as const;
    for (const [name, value] of cases) {
      const expected = thrown(document.createElement('video'), name, value); // what this engine's media element does
      const error = thrown(el, name, value);
      expect(error?.name, `${name} = ${value}`).to.equal(expected?.name);
      expect(error?.constructor, `${name} = ${value}`).to.equal(expected?.constructor);
      // Engines differ on the others (WebKit takes a currentTime of NaN on a video without media): as this one does.
      if (name == 'volume') expect(error, `${name} = ${value} is refused`).to.be.instanceOf(Error);
    }
    expect(el.volume, 'a refused volume is not kept').to.equal(1);
  });

  it('takes over what the page set before the tag was defined; the loader’s stand-ins of play() and pause() give way', async () => {
    // The script-tag loader defines the tag only when it first sees it: page code may have set the
    // media properties (and the loader's preview its stand-ins) on the element before that.
    const tag = 'svc-player-upgraded';
    const el = document.createElement(tag) as SvcPlayer;
    el.setAttribute('content-id', vodId);
    el.setAttribute('loading', 'click');
    Object.assign(el, { currentTime: 1, muted: true, volume: 0.5, playbackRate: 1.5 });
    Object.assign(el, { play: () => Promise.reject(new Error('the stand-in')), pause: () => {} });
    const refused = document.createElement(tag) as SvcPlayer;
    Object.assign(refused, { volume: 2, muted: true });
    document.body.append(el, refused);
    try {
      customElements.define(tag, class extends Player {});
      expect(el).to.be.instanceOf(Player);
      for (const name of ['currentTime', 'muted', 'volume', 'playbackRate', 'play', 'pause']) {
        expect(Object.hasOwn(el, name), `no own ${name} left`).to.equal(false);
      }
      expect([el.currentTime, el.muted, el.volume, el.playbackRate]).to.deep.equal([1, true, 0.5, 1.5]);
      expect([refused.volume, refused.muted], 'a value a media element refuses is dropped, the others kept').to.deep.equal([1, true]);
      await el.play();
      const video = await playerVideo(el);
      expect([video.muted, video.volume, video.playbackRate], 'what was set applies to the video').to.deep.equal([true, 0.5, 1.5]);
      await waitUntil(() => video.currentTime >= 1, 'the video starts where it was set', { timeout: 10_000 });
      el.pause();
      expect(video.paused).to.equal(true);
    } finally {
      el.remove();
      refused.remove();
    }
  });

  it('play() on a lazy player out of view loads it at once and plays', async () => {
    const spacer = document.createElement('div');
    spacer.style.height = '300vh';
    document.body.prepend(spacer);
    try {
      const { el } = mount({ 'content-id': vodId });
      await el.updateComplete;
      expect(el.state, 'out of view: not loaded').to.equal('idle');
      el.muted = true;
      await el.play();
      expect((await playerVideo(el)).paused).to.equal(false);
    } finally {
      spacer.remove();
    }
  });

  it('re-dispatches the video’s media events on the host in the same dispatch, timeupdate once per the video’s; svc-playback marks once per load', async function () {
    this.timeout(30_000);
    const playback = recordPlayback();
    try {
      const { el, ready } = mount({ 'content-id': vodId, loading: 'eager' });
      await ready;
      const video = await playerVideo(el);
      // The video's events as they start (capture on the container runs before the video's own listeners).
      const fromVideo: Event[] = [];
      for (const type of EVENTS) container(el).addEventListener(type, (event) => fromVideo.push(event), true);
      const onHost: { event: Event; videoEvent: Event | undefined; phase: number | undefined }[] = [];
      for (const type of EVENTS) {
        el.addEventListener(type, (event) => {
          const videoEvent = fromVideo.at(-1);
          onHost.push({ event, videoEvent, phase: videoEvent?.eventPhase });
        });
      }
      const bubbled: string[] = [];
      for (const type of EVENTS) document.addEventListener(type, () => bubbled.push(type));

      el.muted = true;
      const ended = next(el, 'ended');
      await el.play();
      await ended;
      expect(onHost.map(({ event }) => event.type)).to.include.members(['volumechange', 'play', 'playing', 'timeupdate', 'pause', 'ended']);
      for (const { event, videoEvent, phase } of onHost) {
        expect(event.target).to.equal(el);
        expect(event.bubbles, `${event.type} does not bubble`).to.equal(false);
        expect(videoEvent?.type, 'the host event follows the video’s own').to.equal(event.type);
        expect(videoEvent?.target).to.equal(video);
        // Dispatched from the video's own listener: the video's event is still being dispatched.
        expect(phase, `${event.type} while the video’s is at its target`).to.equal(Event.AT_TARGET);
        expect(event.timeStamp).to.be.at.least(videoEvent!.timeStamp);
      }
      const count = (list: Event[]) => list.filter((event) => event.type == 'timeupdate').length;
      expect(count(onHost.map(({ event }) => event))).to.equal(count(fromVideo));
      expect(bubbled, 'media events do not reach the document').to.deep.equal([]);

      const first = playback.details.filter((d) => d.type != 'pause');
      expect(first.map((d) => d.type)).to.deep.equal(['play', 'progress', 'progress', 'progress', 'progress', 'ended']);
      expect(marks(first)).to.deep.equal([25, 50, 75, 100]);
      const end = first.at(-1)!;
      expect(end).to.include({ type: 'ended', kind: 'vod', contentId: vodId });
      expect(end.duration).to.equal(video.duration);
      expect(end.currentTime).to.be.closeTo(video.duration, 0.1);

      // Again from the start: play, seeked and ended, but no mark a second time in this load.
      playback.details.length = 0;
      el.currentTime = 0;
      const endedAgain = next(el, 'ended');
      await el.play();
      await endedAgain;
      expect(playback.details.map((d) => d.type)).to.include.members(['seeked', 'play', 'ended']);
      expect(marks(playback.details), 'each mark once per load').to.deep.equal([]);

      // A new load (the element moved) counts again.
      playback.details.length = 0;
      const reloaded = new Promise((resolve) => el.addEventListener('svc-player-ready', resolve, { once: true }));
      el.remove();
      document.body.append(el);
      await reloaded;
      el.muted = true;
      const endedOnceMore = next(el, 'ended');
      await el.play();
      await endedOnceMore;
      expect(marks(playback.details)).to.deep.equal([25, 50, 75, 100]);
    } finally {
      playback.stop();
    }
  });

  it('follows the video the player puts in place of the first (a playlist’s next item)', async () => {
    const { el, ready } = mount({ kind: 'playlist', 'content-id': playlistId, loading: 'eager' });
    await ready;
    const first = await playerVideo(el);
    const emptied: Event[] = [];
    const played: Event[] = [];
    el.addEventListener('emptied', (event) => emptied.push(event));
    el.addEventListener('play', (event) => played.push(event));
    el.querySelector<HTMLButtonElement>('.svc-video-player-next')!.click();
    await waitUntil(() => el.querySelector('[slot="player"] video') !== first, 'the player replaces its video');
    const second = el.querySelector<HTMLVideoElement>('[slot="player"] video')!;
    await waitUntil(() => emptied.length > 0, 'the host says its media changed');
    el.muted = true;
    await el.play();
    expect(second.paused, 'the new video plays').to.equal(false);
    expect(second.muted).to.equal(true);
    expect(first.paused).to.equal(true);
    expect(played.length).to.equal(1);
  });

  it('applies what is set while the player has no video to the next one it puts in (an ad between items)', async () => {
    const { el, ready } = mount({ 'content-id': vodId, loading: 'eager' });
    await ready;
    const first = await playerVideo(el);
    const box = first.parentElement!;
    const emptied = next(el, 'emptied');
    first.remove(); // as a player does between two items
    await emptied;
    el.volume = 0.25; // exact as a float (WebKit keeps volumes as floats)
    el.muted = true;
    expect([el.volume, el.muted, el.paused]).to.deep.equal([0.25, true, true]);
    const played = el.play();
    const second = document.createElement('video');
    second.src = first.src;
    box.append(second);
    await played;
    expect([second.volume, second.muted, second.paused]).to.deep.equal([0.25, true, false]);
    expect([first.volume, first.muted]).to.deep.equal([1, false]);
  });

  it('never reads, drives or reports a video other than the one the player made in its container', async () => {
    // A video elsewhere on the page, and one a post's markup puts in the element itself.
    const other = document.createElement('video');
    other.muted = true;
    other.src = '/__fixtures/sample-2s.mp4';
    document.body.append(other);
    const { el, ready } = mount({ 'content-id': vodId, loading: 'eager' });
    const metadata = next(el, 'loadedmetadata'); // the player's own video's, before listening for others
    const planted = document.createElement('video');
    planted.slot = 'player';
    planted.src = '/__fixtures/sample-2s.mp4';
    el.append(planted);
    const playback = recordPlayback();
    try {
      await ready;
      const video = await playerVideo(el);
      await metadata;
      await waitUntil(() => planted.readyState >= 1, 'the planted video has its metadata', { timeout: 10_000 });
      const heard: string[] = [];
      for (const type of EVENTS) el.addEventListener(type, () => heard.push(type));
      await other.play();
      await waitUntil(() => other.currentTime > 0.2, 'the other video plays', { timeout: 10_000 });
      planted.currentTime = 1;
      // Seeked (its events dispatched): polled, as WebKit at times fires no `seeked` for this slotted video.
      await waitUntil(() => !planted.seeking && Math.abs(planted.currentTime - 1) < 0.01, 'the planted video seeked', { timeout: 10_000 });
      expect(heard, 'no event from another video').to.deep.equal([]);
      expect(playback.details).to.deep.equal([]);
      // A video a script slips into the container beside the player's does not take its place.
      const slipped = document.createElement('video');
      container(el).prepend(slipped);
      await Promise.resolve();
      el.muted = true;
      el.volume = 0.25;
      await el.play();
      expect([video.paused, video.muted, video.volume]).to.deep.equal([false, true, 0.25]);
      for (const node of [other, planted, slipped]) expect(node.volume, 'the others are untouched').to.equal(1);
      expect(planted.paused && slipped.paused).to.equal(true);
      el.pause();
      expect(other.paused, 'pause() leaves the other video alone').to.equal(false);
      expect(playback.details.every((d) => d.contentId == vodId)).to.equal(true);
    } finally {
      playback.stop();
      other.pause();
    }
  });

  it('variant="iframe": play() rejects with NotSupportedError, no media event fires', async () => {
    const { el, ready } = mount({ 'content-id': vodId, variant: 'iframe', loading: 'eager' });
    const heard: string[] = [];
    for (const type of EVENTS) el.addEventListener(type, () => heard.push(type));
    await ready;
    const error = await el.play().then(() => undefined, (reason: unknown) => reason);
    expect(error).to.be.instanceOf(DOMException);
    expect((error as DOMException).name).to.equal('NotSupportedError');
    expect(el.paused).to.equal(true);
    expect(Number.isNaN(el.duration), "duration is NaN").to.equal(true);
    expect(heard).to.deep.equal([]);
  });

  it('a code that is an iframe (default variant): play() rejects with NotSupportedError, also after the load', async () => {
    const { code } = await relay<{ code: string }>('GET', `/embed/vod/${vodId}/iframe`);
    const { el, ready } = mount({ code, loading: 'click' });
    await el.updateComplete;
    expect(el.variant).to.equal('javascript');
    const refusal = (played: Promise<void>) => played.then(() => undefined, (reason: unknown) => reason as DOMException);
    const queued = refusal(el.play()); // waits for the load, which injects an iframe
    expect((await ready).variant).to.equal('iframe');
    expect((await queued)?.name, 'the play() queued before the load').to.equal('NotSupportedError');
    const later = await refusal(el.play());
    expect(later).to.be.instanceOf(DOMException);
    expect(later?.name, 'a play() after the load').to.equal('NotSupportedError');
  });

  it('a play() waiting for the player rejects with AbortError when the element is removed or its content changes', async () => {
    const removed = mount({ 'content-id': vodId, loading: 'click' }).el;
    await removed.updateComplete;
    const first = removed.play();
    removed.remove();
    const error = await first.then(() => undefined, (reason: unknown) => reason as DOMException);
    expect(error).to.be.instanceOf(DOMException);
    expect(error?.name).to.equal('AbortError');

    const { el } = mount({ 'content-id': vodId, loading: 'click' });
    await el.updateComplete;
    const second = el.play();
    el.contentId = playlistId;
    el.kind = 'playlist';
    const other = await second.then(() => undefined, (reason: unknown) => reason as DOMException);
    expect(other?.name, 'another content: a new load').to.equal('AbortError');
  });

  it('a play() queued before the first update plays once the player loads', async () => {
    const el = document.createElement('svc-player');
    el.setAttribute('content-id', vodId);
    el.setAttribute('loading', 'click');
    el.muted = true;
    document.body.append(el);
    await el.play(); // before the element's first update, which schedules the load
    expect((await playerVideo(el)).paused).to.equal(false);
  });
});
