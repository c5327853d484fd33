// The demo's library, with the demo's own stylesheet: a portrait video's card does not stretch the
// landscape card beside it, and its player stays short (16rem): the video is pillarboxed in the
// card's width rather than the card growing tall.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/elements/svc-player/define.js';

declare const describe: (name: string, body: () => void) => void;
declare const it: (name: string, body: () => Promise<void>) => void;

const card = (ratio: string) => html`<li class="card"><article><h3 class="card-title">A ${ratio} video</h3><svc-player kind="vod" aspect-ratio=${ratio}></svc-player></article></li>`;

describe('the demo library', () => {
  it('lays out a portrait card beside a landscape one without stretching it', async () => {
    const sheet = document.createElement('link');
    sheet.rel = 'stylesheet';
    sheet.href = '/demo/styles.css';
    const loaded = new Promise((resolve) => sheet.addEventListener('load', resolve, { once: true }));
    document.head.append(sheet);
    await loaded;
    try {
      const list = await fixture<HTMLUListElement>(html`<ul class="library" style="width: 720px">${card('16/9')}${card('9/16')}</ul>`);
      const [landscape, portrait] = [...list.querySelectorAll('li')];
      const [wide, tall] = [...list.querySelectorAll('svc-player')].map((player) => player.getBoundingClientRect());
      const top = (li: Element) => li.getBoundingClientRect().top;
      expect(top(landscape!), 'side by side').to.be.closeTo(top(portrait!), 1);
      // The landscape card is as tall as its own content, not as the portrait one.
      const own = landscape!.querySelector('article')!.getBoundingClientRect().height;
      expect(landscape!.getBoundingClientRect().height).to.be.closeTo(own + 2, 2);
      expect(tall!.height, 'the portrait player is capped').to.be.at.most(16 * 16 + 1);
      expect(tall!.width, 'as wide as its card (the video is pillarboxed)').to.be.closeTo(wide!.width, 1);
      expect(wide!.width / wide!.height).to.be.closeTo(16 / 9, 0.02);
    } finally {
      sheet.remove();
    }
  });
});
