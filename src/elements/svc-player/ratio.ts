// The video's ratio, as the injected player learns it (part of <svc-player>'s load chunk).

/**
 * Calls `report` with the video's ratio (`width / height`) whenever the player learns it: `loadedmetadata`/`resize` of
 * a `<video>` a script player renders in `container`, or a `svc-player-aspect-ratio` message from
 * the iframe player (checked to come from that iframe and its origin).
 */
export function watchRatio(
  container: HTMLElement,
  player: HTMLScriptElement | HTMLIFrameElement,
  signal: AbortSignal,
  report: (ratio: string) => void,
): void {
  const size = (width: unknown, height: unknown) => {
    if (typeof width == 'number' && typeof height == 'number' && width > 0 && height > 0) report(`${width} / ${height}`);
  };
  const onMedia = ({ target }: Event) => {
    if (target instanceof HTMLVideoElement) size(target.videoWidth, target.videoHeight);
  };
  for (const type of ['loadedmetadata', 'resize']) container.addEventListener(type, onMedia, { capture: true, signal });
  if (player instanceof HTMLIFrameElement) {
    const origin = new URL(player.src).origin;
    const onMessage = ({ source, origin: from, data }: MessageEvent) => {
      if (source === player.contentWindow && from === origin && data?.type === 'svc-player-aspect-ratio') {
        size(data.width, data.height);
      }
    };
    window.addEventListener('message', onMessage, { signal });
  }
}
