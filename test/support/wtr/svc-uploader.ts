// Test helpers for <svc-uploader>.
//
// * A command to slow Chromium's upload of request bodies (DevTools network emulation, through
//   puppeteer), so upload progress is real and byte-paced: the browser side calls
//   `executeServerCommand('svc-uploader-network', {upload_bytes_per_second})`, or `{}` to restore.
// * A flaky way to the upload address, `/__svc-uploader/flaky-upload/<key>`: while `<key>` is not
//   released (`POST /__svc-uploader/flaky-upload/<key>/release`) it reads part of each body and
//   then destroys the connection, so the browser sees a real network failure (status 0); once
//   released it passes requests to the real upload address unchanged.
import type { TestRunnerPlugin } from '@web/test-runner-core';
import type { Stack } from '../servers.js';
import { proxy, type Ctx } from '../wtr-stack.js';

export const NETWORK = 'svc-uploader-network';
export const FLAKY_UPLOAD = '/__svc-uploader/flaky-upload/';

/** The slice of puppeteer's Page this command uses (@web/test-runner-chrome drives puppeteer). */
interface PuppeteerPage {
  emulateNetworkConditions(conditions: { download: number; upload: number; latency: number } | null): Promise<void>;
}

export const plugins: TestRunnerPlugin[] = [
  {
    name: 'svc-uploader-network',
    async executeCommand({ command, payload, session }) {
      if (command !== NETWORK) return undefined;
      if (session.browser.type !== 'puppeteer') {
        throw new Error(`${NETWORK} needs a puppeteer-driven browser, not ${session.browser.type}.`);
      }
      const page = (session.browser as unknown as { getPage(id: string): PuppeteerPage }).getPage(session.id);
      const upload = (payload as { upload_bytes_per_second?: number } | undefined)?.upload_bytes_per_second;
      await page.emulateNetworkConditions(upload === undefined ? null : { download: -1, upload, latency: 0 });
      return true;
    },
  },
];

/** Bytes of a body read before a flaky connection is dropped. */
const DROP_AFTER = 32 * 1024;

export function middleware(state: { stack?: Stack }) {
  const released = new Set<string>();
  return async (ctx: Ctx, next: () => Promise<void>) => {
    if (!ctx.path.startsWith(FLAKY_UPLOAD) || ctx.method !== 'POST') return next();
    const [key, action] = ctx.path.slice(FLAKY_UPLOAD.length).split('/');
    if (!key) return next();
    if (action === 'release') {
      released.add(key);
      ctx.type = 'application/json';
      ctx.body = JSON.stringify({ released: key });
      return;
    }
    ctx.respond = false;
    ctx.status = 200; // for the dev server's log: the answer (or the dropped connection) is ours
    if (!released.has(key)) {
      await new Promise<void>((resolve) => {
        let seen = 0;
        ctx.req.on('data', (chunk: Buffer) => {
          seen += chunk.length;
          if (seen >= DROP_AFTER) ctx.req.socket.destroy();
        });
        ctx.req.on('end', () => ctx.req.socket.destroy());
        ctx.req.on('close', resolve);
      });
      return;
    }
    await proxy(ctx, state.stack!.service.uploadUrl);
  };
}
