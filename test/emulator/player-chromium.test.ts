// Acceptance 5: in Chromium, an embed code from operation 6 placed in a page makes player.js
// render a <video> that plays (its currentTime advances). The page is served from another origin
// with a strict CSP and Trusted Types enforced. Also: the iframe variant, a playlist with
// previous/next, a channel shown offline, and two players on one page.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import he from 'he';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/chromium.js';
import { createLocalService, type LocalService } from '../../src/emulator/app.js';
import { makeVideo } from '../support/media.js';
import { call, uploadForm, waitFor } from './helpers.js';


describe('player.js in Chromium', () => {
  let service: LocalService;
  let browser: Browser;
  let pages: Server;
  let pagesUrl = '';
  /** Page bodies by path, served by the "CMS" origin. */
  const bodies = new Map<string, { html: string; csp: string }>();
  const vods: string[] = [];

  async function uploadReady(source: string, seconds: number): Promise<string> {
    const signed = await call(service.baseUrl, 'POST', '/v2/vod', { source, upload_type: 'ajax', callback_url: 'http://127.0.0.1:9/none' });
    const bytes = readFileSync(makeVideo({ seconds }));
    const response = await fetch(service.uploadUrl, { method: 'POST', body: uploadForm(signed.json, new Blob([bytes], { type: 'video/mp4' }), source) });
    assert.equal(response.status, 201);
    const id = /^vod\/(\d+)\//.exec(signed.json.key)![1]!;
    await waitFor(async () => (await call(service.baseUrl, 'GET', `/v2/vod/${id}/embed/javascript`)).status === 200, 'ready');
    return id;
  }

  /** The decoded embed code of operations 6 to 11. */
  async function embed(kind: string, id: string, variant: 'javascript' | 'iframe'): Promise<string> {
    const { status, json } = await call(service.baseUrl, 'GET', `/v2/${kind}/${id}/embed/${variant}`);
    assert.equal(status, 200);
    return he.decode(json.code);
  }

  /** Serves `markup` in a page whose CSP allows only a nonce and the player origin for scripts. */
  function servePage(markup: string, extraCsp = ''): string {
    const path = `/page-${randomBytes(4).toString('hex')}.html`;
    const nonce = randomBytes(12).toString('base64');
    const csp =
      `default-src 'none'; script-src 'nonce-${nonce}' ${service.playerUrl}; connect-src ${service.playerUrl}; ` +
      `media-src ${service.playerUrl}; frame-src ${service.playerUrl}; base-uri 'none'; object-src 'none'; ` +
      `require-trusted-types-for 'script'; trusted-types 'none'${extraCsp}`;
    bodies.set(path, { html: `<!doctype html><html lang="en"><head><title>CMS page</title></head><body><main>${markup}</main></body></html>`, csp });
    return pagesUrl + path;
  }

  async function open(url: string): Promise<Page> {
    const page = await browser.newPage();
    await page.addInitScript(() => {
      const violations: string[] = [];
      (window as unknown as { __violations: string[] }).__violations = violations;
      document.addEventListener('securitypolicyviolation', (event) => {
        violations.push(`${event.violatedDirective} ${event.blockedURI}`);
      });
    });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    (page as Page & { errors?: string[] }).errors = errors;
    await page.goto(url);
    return page;
  }

  async function assertClean(page: Page): Promise<void> {
    const violations = await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
    assert.deepEqual(violations, [], 'no CSP or Trusted Types violation');
    assert.deepEqual((page as Page & { errors?: string[] }).errors, [], 'no script error');
  }

  before(async () => {
    service = await createLocalService({ processingMs: 10, callbackAttempts: 1, profile: 'seed' });
    vods.push(await uploadReady('first.mp4', 3), await uploadReady('second.mp4', 2));
    pages = createServer((request, response) => {
      const page = bodies.get(request.url ?? '');
      if (!page) return response.writeHead(404).end();
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': page.csp }).end(page.html);
    });
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    pagesUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => pages?.close(resolve));
    await service?.close();
  });

  it('renders a video after the script of the operation-6 embed code, and it plays', async () => {
    const code = await embed('vod', vods[0]!, 'javascript');
    const page = await open(servePage(code));
    try {
      const video = page.locator('script[data-svc-player="ready"] + div video');
      await video.waitFor();
      assert.equal(await video.getAttribute('src'), `${service.playerUrl}/media/${vods[0]}`);
      assert.equal(await video.evaluate((v: HTMLVideoElement) => v.controls && v.hasAttribute('playsinline')), true);
      await video.evaluate((v: HTMLVideoElement) => {
        v.muted = true;
        return v.play();
      });
      await page.waitForFunction(() => (document.querySelector('video') as HTMLVideoElement).currentTime > 0.2);
      await assertClean(page);
    } finally {
      await page.close();
    }
  });

  it('plays inside the iframe of the operation-7 embed code', async () => {
    const code = await embed('vod', vods[1]!, 'iframe');
    const page = await open(servePage(code, "; style-src 'unsafe-inline'"));
    try {
      const video = page.frameLocator('iframe').locator('video');
      await video.waitFor();
      await video.evaluate((v: HTMLVideoElement) => {
        v.muted = true;
        return v.play();
      });
      const frame = page.frames().find((f) => f.url().startsWith(`${service.playerUrl}/embed/`));
      assert.ok(frame, 'the iframe shows the player origin');
      await frame.waitForFunction(() => (document.querySelector('video') as HTMLVideoElement).currentTime > 0.2);
      await assertClean(page);
    } finally {
      await page.close();
    }
  });

  it('plays a playlist in order with previous/next, and shows a channel item offline', async () => {
    const channel = (await call(service.baseUrl, 'POST', '/v2/channel', { title: 'Studio', description: '', region: 'europe', rendition_count: 1 })).json;
    const playlist = (await call(service.baseUrl, 'POST', '/v2/playlist', { title: 'Mix', description: '' })).json;
    const update = await call(service.baseUrl, 'PUT', `/v2/playlist/${playlist.id}/content`, {
      content: [
        { id: vods[1], type: 'vod', position: '1' },
        { id: vods[0], type: 'vod', position: '2' },
        { id: channel.id, type: 'channel', position: '3' },
      ],
    });
    assert.equal(update.status, 200);
    const page = await open(servePage(await embed('playlist', playlist.id, 'javascript')));
    try {
      const label = page.locator('.svc-video-player-label');
      const previous = page.getByRole('button', { name: 'Previous' });
      const next = page.getByRole('button', { name: 'Next' });
      await label.waitFor();
      assert.equal(await label.textContent(), '1 / 3: second.mp4');
      assert.equal(await previous.isDisabled(), true);
      assert.equal(await page.locator('video').getAttribute('src'), `${service.playerUrl}/media/${vods[1]}`);
      await next.click();
      assert.equal(await label.textContent(), '2 / 3: first.mp4');
      assert.equal(await page.locator('video').getAttribute('src'), `${service.playerUrl}/media/${vods[0]}`);
      await next.click();
      assert.equal(await label.textContent(), '3 / 3: Studio');
      assert.equal(await next.isDisabled(), true);
      assert.equal(await page.getByRole('status').filter({ hasText: 'Studio is offline' }).count(), 1);
      await previous.click();
      assert.equal(await label.textContent(), '2 / 3: first.mp4');
      // The end of one item starts the next one.
      await previous.click();
      await page.locator('video').evaluate((v: HTMLVideoElement) => {
        v.muted = true;
        v.currentTime = Math.max(0, v.duration - 0.2);
        return v.play();
      });
      await page.waitForFunction(() => document.querySelector('.svc-video-player-label')?.textContent === '2 / 3: first.mp4');
      await assertClean(page);
    } finally {
      await page.close();
    }
  });

  it('shows a channel as offline, next to a second player on the same page', async () => {
    const channel = (await call(service.baseUrl, 'POST', '/v2/channel', { title: 'Newsroom', description: '', region: 'asia_pacific', rendition_count: 2 })).json;
    const markup = (await embed('channel', channel.id, 'javascript')) + (await embed('vod', vods[0]!, 'javascript'));
    const page = await open(servePage(markup));
    try {
      await page.getByRole('status').filter({ hasText: 'Newsroom is offline' }).waitFor();
      await page.locator('video').waitFor();
      assert.equal(await page.locator('script[data-svc-player="ready"]').count(), 2);
      await assertClean(page);
    } finally {
      await page.close();
    }
  });

  it('shows that unknown content is not available', async () => {
    const code = (await embed('vod', vods[0]!, 'javascript')).replaceAll(`-vod-${vods[0]}`, '-vod-1');
    const page = await open(servePage(code));
    try {
      await page.getByRole('alert').filter({ hasText: 'not available' }).waitFor();
      assert.equal(await page.locator('script[data-svc-player="error"]').count(), 1);
    } finally {
      await page.close();
    }
  });
});
