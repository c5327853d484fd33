// <svc-player> with the relay on another origin than the page: a relay that refuses the page's
// origin (not in SVC_ALLOWED_ORIGINS) or cannot be reached is named as such in `svc-error`, in
// words a site builder understands, while the viewer reads only the short message: "This video
// cannot be shown here.", never "not available" (which is for a video that does not exist).
import { expect } from '@open-wc/testing';
import { trustRelayOrigin } from '../../support/browser.js';
import { mount } from './helpers.js';

declare const describe: (name: string, body: () => void) => void;
declare const it: (name: string, body: () => Promise<void> | void) => void;

// Served by test/support/wtr/svc-uploader.ts: relays on their own origin, against the stack's service.
const RELAYS = '/__svc-uploader/relays/';

async function startRelay(name: string, allowedOrigins: string[]): Promise<string> {
  const response = await fetch(`${RELAYS}${name}`, { method: 'POST', body: JSON.stringify({ allowed_origins: allowedOrigins }) });
  const relay = ((await response.json()) as { relay_url: string }).relay_url;
  trustRelayOrigin(relay); // the page's owner uses this relay
  return relay;
}

const viewerText = (el: Element) => el.shadowRoot!.querySelector('[part~=error]')!.textContent!.trim();

describe('<svc-player> and a relay on another origin', () => {
  it('names a relay that refuses the page origin (origin_not_allowed, SVC_ALLOWED_ORIGINS)', async () => {
    const relay = await startRelay('player-refusing', ['https://cms.example']);
    const { el, error } = mount({ 'content-id': '1234567', loading: 'eager', relay });
    const detail = await error;
    expect(detail.code).to.equal('origin_not_allowed');
    expect(detail.message).to.contain(location.origin);
    expect(detail.message).to.contain('SVC_ALLOWED_ORIGINS');
    await el.updateComplete;
    // A setting the site's owner must fix, not a missing video.
    expect(viewerText(el)).to.equal('This video cannot be shown here.');
    expect(el.querySelector('[slot=player]'), 'nothing injected').to.equal(null);
  });

  it('names a relay that cannot be reached (relay_unreachable), unlike a refusal', async () => {
    // A port nothing listens on: the loopback "discard" port.
    trustRelayOrigin('http://127.0.0.1:9');
    const { el, error } = mount({ 'content-id': '1234567', loading: 'eager', relay: 'http://127.0.0.1:9/svc' });
    const detail = await error;
    expect(detail.code).to.equal('relay_unreachable');
    expect(detail.message).to.contain('http://127.0.0.1:9');
    expect(detail.message).not.to.contain('SVC_ALLOWED_ORIGINS');
    await el.updateComplete;
    expect(viewerText(el)).to.equal('This video cannot be shown here.');
  });

  it('plays from a relay on another origin that allows the page', async () => {
    const relay = await startRelay('player-allowing', [location.origin]);
    const seeded = await (await fetch('/__seed/vod', { method: 'POST' })).json();
    const { ready } = mount({ 'content-id': seeded.vod_id, loading: 'eager', relay });
    const detail = await ready;
    expect(detail.element.tagName).to.equal('SCRIPT');
  });
});
