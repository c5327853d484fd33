// <svc-uploader> with a folder of files (issue 33): a relay whose limit is smaller than the folder
// answers 429 with Retry-After and the queue waits it out (rows stay queued, "waiting" is shown
// and said) until every row is ready; "Retry failed" and "Clear finished" act on every row from the
// keyboard; the live region sums up instead of naming each file; long lists fold their ready rows.
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../../src/elements/svc-uploader/define.js';
import type { SvcUploader, SvcUploadErrorDetail } from '../../../src/elements/svc-uploader/svc-uploader.js';
import { control, trustRelayOrigin, videoFile } from '../../support/browser.js';

declare const describe: (name: string, body: () => void) => void;
declare const it: (name: string, body: (this: { timeout(ms: number): void }) => Promise<void> | void) => void;
declare const afterEach: (body: () => Promise<void> | void) => void;

// Served by test/support/wtr/svc-uploader.ts (a Node module, so not imported here).
const RELAYS = '/__svc-uploader/relays/';

afterEach(async () => {
  await control('/reset', {});
  sessionStorage.clear();
});

/** `count` copies of one real video, each with its own name (a folder). */
async function folder(count: number, prefix = 'clip'): Promise<File[]> {
  const file = await videoFile('sample-2s.mp4');
  return Array.from({ length: count }, (_, i) => new File([file], `${prefix}-${String(i + 1).padStart(2, '0')}.mp4`, { type: file.type }));
}

const part = (el: SvcUploader, name: string) => el.shadowRoot!.querySelector<HTMLElement>(`[part~=${name}]`);
const status = (el: SvcUploader) => el.shadowRoot!.querySelector('[role=status]')!.textContent!.trim();
const listed = (el: SvcUploader) => el.shadowRoot!.querySelectorAll('li[data-id]').length;

/** Every distinct text the live region took, from now on. */
function listen(el: SvcUploader): { said: string[]; stop(): void } {
  const region = el.shadowRoot!.querySelector('[role=status]')!;
  const said: string[] = [];
  const observer = new MutationObserver(() => {
    const text = region.textContent!.trim();
    if (text && text !== said.at(-1)) said.push(text);
  });
  observer.observe(region, { subtree: true, childList: true, characterData: true });
  return { said, stop: () => observer.disconnect() };
}

describe('<svc-uploader> with a folder', () => {
  it('a folder larger than the relay limit reaches ready with no failed row: 429 pauses the queue, rows stay queued, "waiting" is shown and said', async function () {
    this.timeout(120_000);
    const name = `limited-${Date.now()}`; // a relay of its own per engine (relays live for the whole run)
    const response = await fetch(`${RELAYS}${name}`, {
      method: 'POST',
      body: JSON.stringify({ allowed_origins: [location.origin], rate_limits: { create: { limit: 3, windowMs: 3000 } } }),
    });
    const relay = ((await response.json()) as { relay_url: string }).relay_url;
    trustRelayOrigin(relay);
    const el = await fixture<SvcUploader>(html`<svc-uploader multiple concurrency="3" relay=${relay}></svc-uploader>`);
    const errors: SvcUploadErrorDetail[] = [];
    el.addEventListener('svc-error', (event) => errors.push(event.detail as SvcUploadErrorDetail));
    const live = listen(el);
    const files = await folder(8);
    let sawWaiting = false;
    let failedSeen = false;
    const watch = new MutationObserver(() => {
      if (el.items.some((item) => item.state === 'failed')) failedSeen = true;
      if (!part(el, 'waiting')) return;
      sawWaiting = true;
      // While it waits (the requests already sent get their answers), the rest stay queued.
      expect(el.items.some((item) => item.state === 'queued'), JSON.stringify(el.items.map((i) => i.state))).to.equal(true);
    });
    watch.observe(el.shadowRoot!, { subtree: true, childList: true, characterData: true });
    await el.addFiles(files);
    await waitUntil(() => el.items.every((item) => item.state === 'ready'), `all ready (${el.items.map((i) => i.state).join(' ')})`, { timeout: 100_000, interval: 50 });
    watch.disconnect();
    live.stop();
    expect(errors).to.deep.equal([]);
    expect(failedSeen, 'no row ever failed').to.equal(false);
    expect(sawWaiting, 'the waiting note was shown').to.equal(true);
    expect(live.said).to.include(el.strings.waiting ?? 'The server asked to slow down: the queued uploads wait a moment, then go on.');
    const log = (await (await fetch(`${RELAYS}${name}/log`)).json()) as { method: string; path: string; status: number }[];
    const signs = log.filter((record) => record.method === 'POST' && record.path === '/svc/uploads');
    expect(signs.filter((record) => record.status === 429).length, 'the limit was really hit').to.be.greaterThan(0);
    expect(signs.filter((record) => record.status === 201).length, 'each file signed once').to.equal(8);
    await el.updateComplete;
    expect(part(el, 'count')!.textContent).to.equal('8 of 8 ready');
    expect(part(el, 'waiting')).to.equal(null);
  });

  it('"Retry failed" and "Clear finished" act on every row, from the keyboard', async function () {
    this.timeout(60_000);
    await control('/faults', { origin: 'upload', status: 403, count: 2 });
    const el = await fixture<SvcUploader>(html`<svc-uploader multiple concurrency="1"></svc-uploader>`);
    await el.addFiles(await folder(3, 'retry'));
    await waitUntil(() => el.items.filter((i) => i.state === 'failed').length === 2 && el.items.some((i) => i.state === 'ready'), 'two failed, one ready', { timeout: 30_000 });
    await el.updateComplete;
    expect(part(el, 'count')!.textContent).to.equal('1 of 3 ready · 2 failed');
    const retry = part(el, 'retry-failed-button')!;
    expect(retry.textContent!.trim()).to.equal('Retry failed');
    retry.focus();
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => el.items.every((i) => i.state === 'ready'), 'all ready after one "Retry failed"', { timeout: 30_000 });
    await el.updateComplete;
    expect(part(el, 'retry-failed-button')).to.equal(null);
    const clear = part(el, 'clear-finished-button')!;
    clear.focus();
    await sendKeys({ press: ' ' });
    await waitUntil(() => el.items.length === 0, 'every row cleared');
    await el.updateComplete;
    expect(el.shadowRoot!.activeElement, 'focus goes to the drop zone once the button is gone').to.equal(part(el, 'dropzone'));
  });

  it('sums up in the live region (no file named), says a failure at once, shows the overall count and folds ready rows of a long list', async function () {
    this.timeout(90_000);
    await control('/faults', { origin: 'upload', status: 403, count: 1 });
    const el = await fixture<SvcUploader>(html`<svc-uploader multiple concurrency="3"></svc-uploader>`);
    const files = await folder(12, 'many');
    const live = listen(el);
    const started = performance.now();
    const failure = oneEvent(el, 'svc-error');
    await el.addFiles(files);
    const { detail } = (await failure) as CustomEvent<SvcUploadErrorDetail>;
    await el.updateComplete;
    expect(status(el), 'the failure is said at once, by name').to.contain(`${detail.name}: failed.`);
    await waitUntil(() => el.items.filter((i) => i.state === 'ready').length === 11, 'the others ready', { timeout: 60_000 });
    await waitUntil(() => status(el) === '11 ready, 1 failed.', `the last summary (${status(el)})`, { timeout: 5000 });
    const elapsed = performance.now() - started;
    live.stop();
    const named = live.said.filter((text) => files.some((file) => text.includes(file.name)));
    expect(named, 'only the failure names a file').to.deep.equal([`${detail.name}: failed. The upload address refused the file.`]);
    // One summary every 3 s at most, plus the failure said at once and the first summary.
    expect(live.said.length, live.said.join(' | ')).to.be.at.most(Math.floor(elapsed / 3000) + 3);
    expect(live.said.some((text) => /^\d+ uploading/.test(text))).to.equal(true);
    await el.updateComplete;
    expect(part(el, 'count')!.textContent).to.equal('11 of 12 ready · 1 failed');
    // 12 rows: the 11 ready ones fold into one line; its button lists them (and folds them again).
    expect(listed(el)).to.equal(1);
    expect(part(el, 'folded')!.textContent).to.contain('11 ready uploads not listed');
    const fold = part(el, 'fold-button')!;
    expect(fold.getAttribute('aria-expanded')).to.equal('false');
    fold.focus();
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect(listed(el)).to.equal(12);
    expect(fold.getAttribute('aria-expanded')).to.equal('true');
    expect(el.shadowRoot!.activeElement).to.equal(fold);
    fold.click();
    await el.updateComplete;
    expect(listed(el)).to.equal(1);
  });
});
