// The relay types playlist items: the service's own type where it gives one (observed profile);
// else from what the relay created; an item it did not create is typed by the user once, and that
// type is remembered for that playlist after the service accepted the save (seed profile: the
// service gives no type).
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { startStack, type Stack } from '../support/servers.js';
import { describeStores } from './helpers.js';

const H = { 'Content-Type': 'application/json', 'X-Svc-Request': '1' };

describeStores('playlist item types (seed profile: the service gives none)', (store) => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ profile: 'seed', consistencyMs: 0, relay: { database: await store.database() } });
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

describeStores('playlist item types (observed profile: the service gives them)', (store) => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ consistencyMs: 0, relay: { database: await store.database() } });
  });
  after(() => stack.close());

  it('keeps the type the service gives for an item the relay does not know', async () => {
    const key = { 'Content-Type': 'application/json', 'X-Api-Key': stack.service.apiKey, 'X-Format': 'default' };
    const made = await fetch(`${stack.service.baseUrl}/v2/channel`, {
      method: 'POST',
      headers: key,
      body: JSON.stringify({ title: 'made elsewhere', description: '', region: 'europe', rendition_count: 1 }),
    });
    assert.equal(made.status, 201);
    const hidden = ((await made.json()) as { id: string }).id;
    const created = await fetch(`${stack.relayUrl}/playlists`, { method: 'POST', headers: H, body: JSON.stringify({ title: 'typed', description: '' }) });
    const playlist = (await created.json()) as { id: string };
    const put = await fetch(`${stack.service.baseUrl}/v2/playlists/${playlist.id}/content`, {
      method: 'PUT',
      headers: key,
      body: JSON.stringify({ content: JSON.stringify([{ id: hidden, type: 'channel', position: 1 }]) }),
    });
    assert.equal(put.status, 200);
    const got = await fetch(`${stack.relayUrl}/playlists/${playlist.id}`, { headers: H });
    const list = ((await got.json()) as { content: { list: { id: string; type: unknown }[] } }).content.list;
    assert.deepEqual(list.map((item) => [item.id, item.type]), [[hidden, 'channel']]);
  });
});
