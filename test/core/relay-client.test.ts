// RelayClient checks the shape of what the elements use in the relay's answers (a malformed answer
// is an error with a code, never a blank view), shares GET /config per relay for the whole page,
// and tells a failed fetch from a refusal.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RelayClient } from '../../src/core/relay-client.js';

const CONFIG = {
  upload_url: 'https://uploads.example/',
  player_origin: 'https://player.example',
  iframe_origins: ['https://player.example'],
  max_upload_bytes: 1024,
  regions: ['europe'],
  rendition_count: { min: 1, max: 3 },
};
const PLAYLIST = { id: 'p1', title: 'T', save_date: '2026-01-01T00:00:00Z', content: { list: null, start_time: '00:00:00' } };
const CHANNEL = { id: 'c1', config: { publishing_point_primary: 'rtmp://a', publishing_point_backup: null, stream_name: 's', login: 'l', password: 'p' } };

let relays = 0;
/** A client of a fresh relay URL (the config cache is per relay) whose fetch answers `body`. */
function answering(body: unknown, status = 200) {
  let calls = 0;
  const fetch = (async () => {
    calls++;
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  const client = new RelayClient({ baseUrl: `https://relay${++relays}.example/svc`, fetch });
  return { client, fetch, calls: () => calls };
}

describe('RelayClient answer checks', () => {
  const cases: [string, (c: RelayClient) => Promise<unknown>, unknown, string | null][] = [
    ['config: complete', (c) => c.config(), CONFIG, null],
    ['config: no regions', (c) => c.config(), { ...CONFIG, regions: [] }, 'internal'],
    ['config: reversed rendition range', (c) => c.config(), { ...CONFIG, rendition_count: { min: 3, max: 1 } }, 'internal'],
    ['config: a player origin that is not text', (c) => c.config(), { ...CONFIG, player_origin: 42 }, 'internal'],
    ['config: only what one element uses (the rest passed through)', (c) => c.config(), { player_origin: 'https://p.example', extra: true }, null],
    ['config: not an object', (c) => c.config(), 'nope', 'internal'],
    ['playlist: complete', (c) => c.playlist('p1'), PLAYLIST, null],
    ['playlist: pending with a null list', (c) => c.playlist('p1'), { ...PLAYLIST, pending: true }, null],
    ['playlist: no save_date', (c) => c.playlist('p1'), { ...PLAYLIST, save_date: undefined }, 'internal'],
    ['playlist: no content', (c) => c.playlist('p1'), { ...PLAYLIST, content: null }, 'internal'],
    ['createPlaylist: no id', (c) => c.createPlaylist({ title: 'T', description: '' }), { ...PLAYLIST, id: 7 }, 'internal'],
    ['savePlaylistContent: empty', (c) => c.savePlaylistContent('p1', { items: [] }), {}, 'internal'],
    ['createChannel: complete, null backup', (c) => c.createChannel({ title: 'T', description: '', region: 'europe', rendition_count: 1 }), CHANNEL, null],
    ['createChannel: no login', (c) => c.createChannel({ title: 'T', description: '', region: 'europe', rendition_count: 1 }), { ...CHANNEL, config: { ...CHANNEL.config, login: undefined } }, 'upstream_rejected'],
    ['createChannel: nothing', (c) => c.createChannel({ title: 'T', description: '', region: 'europe', rendition_count: 1 }), null, 'upstream_rejected'],
  ];
  for (const [name, call, body, code] of cases) {
    it(name, async () => {
      const { client } = answering(body);
      if (code === null) assert.deepEqual(await call(client), body);
      else await assert.rejects(call(client), { code });
    });
  }

  it('a conflict carries the current playlist from the relay', async () => {
    const { client } = answering({ error: { code: 'conflict', message: 'stale' }, current: PLAYLIST }, 409);
    await assert.rejects(client.savePlaylistContent('p1', { items: [] }), (error: { code: string; body: unknown }) => {
      assert.equal(error.code, 'conflict');
      assert.deepEqual(error.body, PLAYLIST);
      return true;
    });
  });
});

describe('RelayClient GET /config', () => {
  it('is asked once per relay and fetch for every client of the page; a failure is asked again', async () => {
    const { client, fetch, calls } = answering(CONFIG);
    const other = new RelayClient({ baseUrl: client.baseUrl, fetch });
    assert.deepEqual(await Promise.all([client.config(), other.config(), client.config()]), [CONFIG, CONFIG, CONFIG]);
    assert.equal(calls(), 1);
    // A client with its own fetch (a test's, a custom transport) is not answered from another's.
    const own = answering({ ...CONFIG, max_upload_bytes: 7 });
    const mine = new RelayClient({ baseUrl: client.baseUrl, fetch: own.fetch });
    assert.equal((await mine.config()).max_upload_bytes, 7);
    const failing = answering({ error: { code: 'upstream_unavailable', message: 'down' } }, 503);
    await assert.rejects(failing.client.config(), { code: 'upstream_unavailable' });
    await assert.rejects(failing.client.config(), { code: 'upstream_unavailable' });
    assert.equal(failing.calls(), 2, 'a failed answer is not kept');
  });

  it('stops only the waiting caller when its signal aborts', async () => {
    const { client } = answering(CONFIG);
    const controller = new AbortController();
    const waiting = client.config(controller.signal);
    controller.abort();
    await assert.rejects(waiting, { name: 'AbortError' });
    assert.deepEqual(await client.config(), CONFIG);
  });
});

describe('RelayClient network failures', () => {
  it('a fetch that throws is a network failure; a TypeError from code elsewhere is not', async () => {
    const client = new RelayClient({ baseUrl: `https://relay${++relays}.example/svc`, fetch: () => Promise.reject(new TypeError('Failed to fetch')) });
    await assert.rejects(client.library(), (error: { code: string }) => ['relay_unreachable', 'network_error'].includes(error.code));
  });
});

describe('RelayClient ids', () => {
  it('asks for an id the relay takes; refuses one it would refuse before sending anything', async () => {
    const { client, calls } = answering({ code: '&lt;iframe&gt;' });
    assert.equal((await client.embed('vod', 'A-1_b', 'iframe')).code, '&lt;iframe&gt;');
    assert.equal(calls(), 1);
    // A dot segment would leave the route (a URL drops it: `/embed/vod/../iframe` is `/embed/iframe`).
    for (const id of ['..', '.', 'a/b', 'a%2Fb', 'a b', '', 'x'.repeat(129)]) {
      const refused = (error: { code: string }) => error.code === 'validation_failed';
      await assert.rejects(client.embed('vod', id, 'iframe'), refused, id);
      await assert.rejects(client.playlist(id), refused, id);
      await assert.rejects(client.savePlaylistContent(id, { items: [] }), refused, id);
      await assert.rejects(client.upload(id), refused, id);
      await assert.rejects(client.markUploaded(id), refused, id);
    }
    assert.equal(calls(), 1);
  });
});
