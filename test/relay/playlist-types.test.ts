// The relay types playlist items from what it created; an item it did not create is typed by the
// user once, and that type is remembered for that playlist after the service accepted the save.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { startStack, type Stack } from '../support/servers.js';
import { describeStores } from './helpers.js';

const H = { 'Content-Type': 'application/json', 'X-Svc-Request': '1' };

describeStores('playlist item types', (store) => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ relay: { database: await store.database() } });
  });
  after(() => stack.close());

  async function relay(method: string, path: string, body?: unknown) {
    const response = await fetch(`${stack.relayUrl}${path}`, { method, headers: H, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: response.status, json: await response.json() };
  }

  /** A channel made on the service directly (with the key): the relay has no record of it. */
  async function upstreamChannel(): Promise<string> {
    const response = await fetch(`${stack.service.baseUrl}/v2/channel`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Api-Key': stack.service.apiKey, 'X-Format': 'default' },
      body: JSON.stringify({ title: 'made elsewhere', description: '', region: 'europe', rendition_count: 1 }),
    });
    assert.equal(response.status, 200);
    return ((await response.json()) as { id: string }).id;
  }

  it('remembers the type a user gave once the service accepted it, for that playlist only', async () => {
    const hidden = await upstreamChannel();
    const first = (await relay('POST', '/playlists', { title: 'one', description: '' })).json;
    const second = (await relay('POST', '/playlists', { title: 'two', description: '' })).json;

    // Put the item in both playlists behind the relay's back: the relay cannot type it.
    for (const playlist of [first, second]) {
      const response = await fetch(`${stack.service.baseUrl}/v2/playlist/${playlist.id}/content`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', 'X-Api-Key': stack.service.apiKey, 'X-Format': 'default' },
        body: JSON.stringify({ content: [{ id: hidden, type: 'channel', position: '1' }] }),
      });
      assert.equal(response.status, 200);
    }
    assert.deepEqual((await relay('GET', `/playlists/${first.id}`)).json.content.list.map((i: { type: unknown }) => i.type), [null]);

    // A wrong type is refused by the service and remembered nowhere.
    const wrong = await relay('PUT', `/playlists/${first.id}/content`, { items: [{ id: hidden, type: 'vod' }] });
    assert.equal(wrong.status >= 400, true);
    assert.deepEqual((await relay('GET', `/playlists/${first.id}`)).json.content.list.map((i: { type: unknown }) => i.type), [null]);

    const saved = await relay('PUT', `/playlists/${first.id}/content`, { items: [{ id: hidden, type: 'channel' }] });
    assert.equal(saved.status, 200);
    assert.deepEqual(saved.json.content.list.map((i: { type: unknown }) => i.type), ['channel']);
    assert.deepEqual((await relay('GET', `/playlists/${first.id}`)).json.content.list.map((i: { type: unknown }) => i.type), ['channel']);
    // The other playlist was not typed by its user: still unknown there.
    assert.deepEqual((await relay('GET', `/playlists/${second.id}`)).json.content.list.map((i: { type: unknown }) => i.type), [null]);
  });
});
