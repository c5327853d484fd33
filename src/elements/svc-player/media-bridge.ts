// The player as a media element (part of the load chunk, so nothing of it is in the first paint):
// follows the <video> the service's player script renders inside the element's own player
// container, re-dispatches its media events on the host and reports the moments a site counts
// (`svc-playback`). Only that container is watched: a <video> anywhere else on the page, or put
// directly into <svc-player>, is never read, driven or reported.
import type { EmbedKind } from '../../service/types.js';
import type { ElementPort } from '../shared/port.js';

/** Media events re-dispatched on the host, not bubbling, as a media element fires them. */
export const MEDIA_EVENTS = [
  'loadstart', 'loadedmetadata', 'loadeddata', 'durationchange', 'canplay', 'progress', 'play', 'playing', 'pause',
  'seeking', 'seeked', 'waiting', 'timeupdate', 'ratechange', 'volumechange', 'resize', 'ended', 'error', 'emptied',
] as const;

/** What a site counts: a play, a pause, the end, a seek, and the 25/50/75/100 % marks. */
export type SvcPlaybackType = 'play' | 'pause' | 'ended' | 'seeked' | 'progress';

export interface SvcPlaybackDetail {
  type: SvcPlaybackType;
  kind: EmbedKind;
  contentId: string;
  currentTime: number;
  duration: number;
  /** With `type: 'progress'`: the mark reached, 25, 50, 75 or 100 (each once per load). */
  percent?: number;
}

/** What a page sets while no `<video>` is followed; applied to the next one followed. */
export type MediaPreset = Partial<Pick<HTMLMediaElement, 'currentTime' | 'muted' | 'volume' | 'playbackRate'>>;

/** A `play()` of the element waiting for a `<video>`: the element queues it, the next video followed plays it. */
export interface PendingPlay {
  resolve(): void;
  reject(reason: unknown): void;
}

const MARKS = [25, 50, 75, 100];
const abortError = (message: string) => new DOMException(message, 'AbortError');

/**
 * One per element. `follow()` watches the container of each script player the element injects (until
 * its signal aborts); `video` is the one followed, kept while it stays in the container, replaced by
 * the container's first `<video>` once it leaves (a playlist's next item, an ad).
 */
export class MediaBridge {
  video?: HTMLVideoElement;

  constructor(
    readonly host: HTMLElement,
    /** The element's port: `svc-playback` is fired through it. */
    readonly port: ElementPort<object>,
    readonly preset: MediaPreset,
    /** The element's queue of `play()` calls waiting for a video (the element cancels them: `pause()`, another source). */
    readonly plays: PendingPlay[],
  ) {}

  follow(container: HTMLElement, source: { kind: EmbedKind; contentId: string }, signal: AbortSignal): void {
    const reached = new Set<number>();
    let listening: AbortController | undefined;
    const drop = () => {
      if (!this.video) return;
      listening?.abort();
      this.video = undefined;
      this.host.dispatchEvent(new Event('emptied')); // the host is an empty media element again
    };
    const pick = () => {
      if (this.video && container.contains(this.video)) return;
      drop();
      const video = container.querySelector('video');
      if (!video) return;
      this.video = video;
      listening = new AbortController();
      const playback = (type: SvcPlaybackType, percent?: number) => {
        const { currentTime, duration } = video;
        this.port.emit<SvcPlaybackDetail>('svc-playback', { type, ...source, currentTime, duration, ...(percent ? { percent } : {}) });
      };
      // In the video's own listener: the host's event is dispatched in the same task, once per the video's.
      const forward = ({ type }: Event) => {
        this.host.dispatchEvent(new Event(type));
        if (type == 'timeupdate' || type == 'ended') {
          const { currentTime, duration } = video;
          for (const mark of MARKS) {
            const due = type == 'ended' || (duration > 0 && currentTime >= (duration * mark) / 100);
            if (due && Number.isFinite(duration) && !reached.has(mark)) {
              reached.add(mark);
              playback('progress', mark);
            }
          }
        }
        if (type == 'play' || type == 'pause' || type == 'ended' || type == 'seeked') playback(type);
      };
      for (const type of MEDIA_EVENTS) video.addEventListener(type, forward, { signal: listening.signal });
      this.#apply(video, listening.signal); // what the page set while no video was followed
      for (const play of this.plays.splice(0)) video.play().then(play.resolve, play.reject);
    };
    const observer = new MutationObserver(pick);
    observer.observe(container, { childList: true, subtree: true });
    signal.addEventListener(
      'abort',
      () => {
        observer.disconnect();
        drop();
        for (const play of this.plays.splice(0)) play.reject(abortError('The player was removed.'));
      },
      { once: true },
    );
    pick();
  }

  /**
   * What the page set before the video existed; a value the video refuses (a volume of 2) is dropped.
   * Muted and volume at once (a play may follow, and autoplay rules look at them); the position and
   * the rate once the video has its metadata (WebKit unmutes a video whose rate was set before).
   */
  #apply(video: HTMLVideoElement, signal: AbortSignal): void {
    const { currentTime, playbackRate, ...now } = this.preset;
    for (const key of Object.keys(this.preset) as (keyof MediaPreset)[]) delete this.preset[key];
    const set = (values: MediaPreset) => {
      for (const [key, value] of Object.entries(values)) {
        try {
          if (value !== undefined) Object.assign(video, { [key]: value });
        } catch {
          // the video refuses it, as a media element throws on that set (IndexSizeError): nothing to apply
        }
      }
    };
    set(now);
    const later = () => {
      const { muted } = video;
      set({ playbackRate, currentTime });
      if (video.muted != muted) video.muted = muted; // WebKit unmutes on a rate change
    };
    if (video.readyState) later();
    else video.addEventListener('loadedmetadata', later, { once: true, signal });
  }
}
