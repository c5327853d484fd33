// GET /library in pages: at most LIBRARY_PAGE items an answer (the default), a smaller `limit` on
// request, `next_cursor` to the next page (null on the last one); RelayClient.library(), which the
// playlist editor uses, follows the cursor and gets every item, newest first.
/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are checked field by field */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRelay, type Relay } from '../../src/relay/app.js';
import { openStore } from '../../src/relay/store/open.js';
import type { Store } from '../../src/relay/store/store.js';
import { LIBRARY_PAGE } from '../../src/relay/routes/content.js';
import { RelayClient } from '../../src/core/relay-client.js';
import { JWT_SECRET, describeStores, offlineOptions, relayRequest, signToken } from './helpers.js';

describeStores('GET /library in pages', (kind) => {
  const COUNT = 2 * LIBRARY_PAGE + 3;
  let store: Store;
  let relay: Relay;
  let alice: Record<string, string>;
  /** Alice's ids, newest first (the reverse of their insertion). */
  const newestFirst: string[] = [];

  before(async () => {
    store = openStore(await kind.database(mkdtempSync(join(tmpdir(), 'relay-library-'))));
    await store.ready;
    for (let i = 0; i < COUNT; i++) {
      const type = (['vod', 'channel', 'playlist'] as const)[i % 3]!;
      await store.addContent({ type, id: `a${i}`, owner: 'alice', title: `Item ${i}` });
      newestFirst.unshift(`a${i}`);
    }
    await store.addContent({ type: 'vod', id: 'b0', owner: 'bob', title: 'Bob' });
    relay = createRelay({ ...offlineOptions('library-key'), logger: () => {}, auth: 'jwt', jwtSecret: JWT_SECRET, store });
    alice = { Authorization: `Bearer ${await signToken('alice')}` };
  });
  after(() => relay?.close());

  const page = async (query: string, headers = alice) => {
    const response = await relay(relayRequest(`/library${query}`, { headers }));
    return { status: response.status, body: (await response.json()) as any };
  };

  it('answers at most one page, with the cursor of the next, and every item once across the pages, newest first', async () => {
    const seen: string[] = [];
    const sizes: number[] = [];
    let answer = await page('');
    for (;;) {
      assert.equal(answer.status, 200);
      sizes.push(answer.body.items.length);
      seen.push(...answer.body.items.map((item: any) => item.id));
      if (answer.body.next_cursor === null) break;
      assert.equal(typeof answer.body.next_cursor, 'string');
      answer = await page(`?cursor=${encodeURIComponent(answer.body.next_cursor)}`);
    }
    assert.deepEqual(sizes, [LIBRARY_PAGE, LIBRARY_PAGE, 3]);
    assert.deepEqual(seen, newestFirst);
    assert.deepEqual(Object.keys((await page('?limit=1')).body.items[0]).sort(), ['created_at', 'id', 'title', 'type']);
  });

  it('takes a smaller page size, caps a larger one, and keeps each user to their own items', async () => {
    const first = await page('?limit=2');
    assert.deepEqual(first.body.items.map((item: any) => item.id), newestFirst.slice(0, 2));
    const second = await page(`?limit=2&cursor=${first.body.next_cursor}`);
    assert.deepEqual(second.body.items.map((item: any) => item.id), newestFirst.slice(2, 4));
    assert.equal((await page('?limit=100000')).body.items.length, LIBRARY_PAGE);
    assert.equal((await page('?limit=999999999999999')).body.items.length, LIBRARY_PAGE);
    const bob = { Authorization: `Bearer ${await signToken('bob')}` };
    assert.deepEqual((await page('', bob)).body, { items: [{ id: 'b0', type: 'vod', title: 'Bob', created_at: (await store.getContent('vod', 'b0'))!.createdAt }], next_cursor: null });
    // Alice's cursor shows bob nothing of hers (his one item is newer than that place).
    assert.deepEqual((await page(`?cursor=${first.body.next_cursor}`, bob)).body, { items: [], next_cursor: null });
  });

  it('refuses a limit that is not a whole number from 1, and a cursor it did not make (400)', async () => {
    for (const query of ['?limit=0', '?limit=-1', '?limit=abc', '?limit=1.5', '?cursor=', '?cursor=not-a-cursor', `?cursor=${Buffer.from('2026-01-01T00:00:00.000Z x').toString('base64url')}`]) {
      const answer = await page(query);
      assert.equal(answer.status, 400, query);
      assert.equal(answer.body.error.code, 'validation_failed', query);
    }
  });

  it('gives RelayClient.library() (the playlist editor\'s) every item by following the cursor', async () => {
    const token = await signToken('alice');
    const requested: string[] = [];
    const client = new RelayClient({
      baseUrl: 'http://relay.test/svc',
      token: () => token,
      fetch: (async (url: string, init: RequestInit) => (requested.push(new URL(url).search), relay(new Request(url, init)))) as typeof fetch,
    });
    const library = await client.library();
    assert.deepEqual(library.items.map((item) => item.id), newestFirst);
    assert.equal(requested.length, 3);
    assert.equal(requested[0], '');
  });
});
