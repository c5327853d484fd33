// Library options against the local service: the "string" playlist envelope, a custom identity
// hook, another base path.
/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are checked field by field */
import { it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serviceOptions, startStack, uploadVod, type Stack } from '../support/servers.js';
import { makeVideo } from '../support/media.js';
import { describeStores, startRelay, type RelayServer } from './helpers.js';

describeStores('relay options', (store) => {
  let stack: Stack;
  let relay: RelayServer;
  before(async () => {
    stack = await startStack({ processingMs: 50, relay: { logger: () => {} } });
    const database = await store.database();
    relay = await startRelay((origin) => ({
      ...serviceOptions(stack.service),
      publicUrl: origin,
      basePath: '/api/video',
      database,
      playlistUpdateEnvelope: 'string',
      playlistUpdate: { method: 'PUT', path: '/v2/playlist/{playlistId}/content' },
      // The host's own session check: here, a header set by a trusted front end.
      auth: async (request) => {
        const user = request.headers.get('x-test-user');
        return user ? { id: user } : null;
      },
      logger: () => {},
    }));
  });
  after(async () => {
    await relay?.close();
    await stack?.close();
  });

  it('serves under another base path with a custom identity hook and the string envelope', async () => {
    const url = `${relay.origin}/api/video`;
    assert.equal((await fetch(`${url}/library`, { headers: { 'X-Svc-Request': '1' } })).status, 401);
    const headers = { 'X-Test-User': 'erin', 'X-Svc-Request': '1', 'Content-Type': 'application/json' };
    const vod = await uploadVod(url, makeVideo({ seconds: 1 }), { 'X-Test-User': 'erin' });
    const playlist = (await (await fetch(`${url}/playlists`, { method: 'POST', headers, body: '{"title":"Erin","description":""}' })).json()) as any;
    const put = await fetch(`${url}/playlists/${playlist.id}/content`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ items: [{ id: vod.vod_id, type: 'vod' }] }),
    });
    assert.equal(put.status, 200);
    const body = (await put.json()) as any;
    assert.deepEqual(body.content.list.map((i: any) => [i.id, i.position, i.type]), [[vod.vod_id, '1', 'vod']]);
    const library = (await (await fetch(`${url}/library`, { headers })).json()) as any;
    assert.deepEqual(library.items.map((i: any) => i.type), ['playlist', 'vod']);
    assert.equal((await fetch(`${relay.origin}/svc/config`)).status, 404, 'nothing under the default path');
  });
});
