// The store methods the hardening added (issue 17), as one suite any Store implementation can run:
// lookup by callback token, failing uploads whose token expired (one event each), and the newest
// event id (for `event: reset`).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/relay/store/open.js';
import { hashToken } from '../../src/relay/upload-tokens.js';
import type { Store } from '../../src/relay/store/store.js';
import { describeStores } from './helpers.js';

export function hardeningStoreSuite(name: string, open: () => Promise<Store>) {
  describe(`${name}: hardening methods`, () => {
    it('finds an upload by its token hash only', async () => {
      const store = await open();
      try {
        await store.createUpload({ id: 'tok1', owner: 'ann', source: 'a.mp4', tokenHash: hashToken('secret-token') });
        assert.equal((await store.uploadByToken(hashToken('secret-token')))?.id, 'tok1');
        assert.equal(await store.uploadByToken(hashToken('secret-tokeN')), undefined);
        assert.equal(await store.uploadByToken(Buffer.alloc(0)), undefined);
      } finally {
        await store.close();
      }
    });

    it('fails signed and processing uploads created before the cut-off, once, with an event each', async () => {
      const store = await open();
      try {
        await store.createUpload({ id: 'old-signed', owner: 'ann', source: 'a.mp4', tokenHash: hashToken('a') });
        await store.createUpload({ id: 'old-processing', owner: 'bob', source: 'b.mp4', tokenHash: hashToken('b') });
        await store.markUploaded('old-processing');
        await store.createUpload({ id: 'old-ready', owner: 'ann', source: 'c.mp4', tokenHash: hashToken('c') });
        await store.completeUpload(hashToken('c'), { id: 'v1', title: 'C' });
        const cutOff = new Date(Date.now() + 1000).toISOString();
        const events = await store.failExpiredUploads(cutOff);
        assert.deepEqual(events.map((e) => [e.owner, e.data.upload_id, e.data.state]).sort(), [
          ['ann', 'old-signed', 'failed'],
          ['bob', 'old-processing', 'failed'],
        ]);
        assert.equal((await store.getUpload('old-ready'))!.state, 'ready');
        assert.equal((await store.getUpload('old-signed'))!.state, 'failed');
        assert.deepEqual(await store.failExpiredUploads(cutOff), [], 'only once');
        assert.deepEqual(await store.failExpiredUploads(new Date(0).toISOString()), []);
        // The events are stored: a reconnecting page replays them.
        assert.ok((await store.eventsAfter('bob', 0)).some((e) => e.data.state === 'failed'));
      } finally {
        await store.close();
      }
    });

    it('knows the newest event id (0 when empty)', async () => {
      const store = await open();
      try {
        assert.equal(await store.lastEventSeq(), 0);
        await store.createUpload({ id: 'e1', owner: 'ann', source: 'a.mp4', tokenHash: hashToken('e1') });
        const { event } = await store.createUpload({ id: 'e2', owner: 'bob', source: 'b.mp4', tokenHash: hashToken('e2') });
        assert.equal(await store.lastEventSeq(), event.seq);
      } finally {
        await store.close();
      }
    });
  });
}

// On both stores (PostgreSQL's lastEventSeq is what `event: reset` reads with several instances),
// SQLite on a file as the relay runs it.
describeStores('hardening', (kind) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-hardening-store-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  hardeningStoreSuite(kind.name, async () => {
    const store = openStore(await kind.database(dir));
    await store.ready;
    return store;
  });
});
