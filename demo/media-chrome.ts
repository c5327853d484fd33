// The media-chrome demo page: media-chrome's controls on <svc-player> (a media element once its
// script player renders its <video>), and one document listener for `svc-playback`, the way a page
// feeds an analytics tool.
import 'media-chrome';
import '../src/elements/svc-player/define.js';
import { RelayClient } from '../src/core/relay-client.js';

const status = document.querySelector<HTMLParagraphElement>('#media-status')!;
const controller = document.querySelector<HTMLElement>('#media-chrome-player')!;
const player = controller.querySelector('svc-player')!;
const log = document.querySelector<HTMLOListElement>('#playback-log')!;

document.addEventListener('svc-playback', ({ detail }) => {
  const item = document.createElement('li');
  const mark = detail.type == 'progress' ? ` ${detail.percent} %` : '';
  item.textContent = `${detail.type}${mark} · ${detail.kind} ${detail.contentId} at ${detail.currentTime.toFixed(1)} s of ${detail.duration.toFixed(1)} s`;
  log.append(item);
});

try {
  const { items } = await new RelayClient({ baseUrl: '/svc' }).library();
  const vod = items.find((item) => item.type == 'vod');
  if (vod) {
    player.contentId = vod.id;
    player.title = vod.title || `Video ${vod.id}`;
    controller.hidden = false;
    status.textContent = `Playing “${player.title}” from your library.`;
  } else {
    status.textContent = 'No ready video yet: upload one on the demo page first.';
  }
} catch (error) {
  status.textContent = `The library could not be read (${(error as Error).message}).`;
}
