// The API origin's refusals: 401 without the key headers, 400 naming the bad fields, 404 for
// unknown ids; and the rules of channels and the playlist update.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLocalService, type LocalService } from '../../src/emulator/app.js';
import { call, KEY_HEADERS } from './helpers.js';

describe('API errors', () => {
  let service: LocalService;
  before(async () => {
    service = await createLocalService({ apiKey: 'the-key', profile: 'seed' });
  });
  after(() => service.close());
  const headers = { ...KEY_HEADERS, 'X-Api-Key': 'the-key' };
  const api = (method: string, path: string, body?: unknown) => call(service.baseUrl, method, path, body, headers);

  it('answers 401 with a JSON error without the right X-Api-Key and X-Format', async () => {
    const cases: Record<string, string>[] = [
      {},
      { 'X-Format': 'default' },
      { 'X-Api-Key': 'wrong', 'X-Format': 'default' },
      { 'X-Api-Key': 'the-ke', 'X-Format': 'default' },
      { 'X-Api-Key': 'the-key' },
      { 'X-Api-Key': 'the-key', 'X-Format': 'json' },
    ];
    for (const given of cases) {
      for (const [method, path] of [['POST', '/v2/vod'], ['GET', '/v2/playlist/1'], ['GET', '/v2/vod/1/embed/iframe']] as const) {
        const result = await call(service.baseUrl, method, path, method === 'POST' ? {} : undefined, given);
        assert.equal(result.status, 401, `${method} ${path} with ${JSON.stringify(given)}`);
        assert.equal(result.json.error.code, 'unauthorized');
        assert.equal(typeof result.json.error.message, 'string');
      }
    }
  });

  it('answers 400 naming each bad field of operations 1, 3 and 5', async () => {
    const cases: [string, unknown, string[]][] = [
      ['/v2/vod', {}, ['source', 'upload_type', 'callback_url']],
      ['/v2/vod', { source: 'a.mp4', upload_type: 'ajax', callback_url: 'ftp://x/y' }, ['callback_url']],
      ['/v2/vod', { source: 'a.mp4', upload_type: 'ajax', callback_url: 'not a url' }, ['callback_url']],
      ['/v2/vod', { source: '', upload_type: 'ajax', callback_url: 'http://x/' }, ['source']],
      ['/v2/playlist', { description: 'd' }, ['title']],
      ['/v2/playlist', { title: 5, description: 'd' }, ['title']],
      ['/v2/channel', { title: 't', description: 'd', region: 'mars', rendition_count: 2 }, ['region']],
      ['/v2/channel', { title: 't', description: 'd', region: 'europe', rendition_count: 0 }, ['rendition_count']],
      ['/v2/channel', { title: 't', description: 'd', region: 'europe', rendition_count: 6 }, ['rendition_count']],
      ['/v2/channel', { title: 't', description: 'd', region: 'europe', rendition_count: 2.5 }, ['rendition_count']],
      ['/v2/channel', { title: 't', description: 'd', region: 'europe', rendition_count: '2' }, ['rendition_count']],
      ['/v2/channel', [], ['body']],
      ['/v2/channel', 'not json', ['body']],
    ];
    for (const [path, body, fields] of cases) {
      const result = await api('POST', path, body);
      assert.equal(result.status, 400, `${path} ${JSON.stringify(body)}`);
      assert.equal(result.json.error.code, 'validation_failed');
      assert.deepEqual(Object.keys(result.json.error.fields).sort(), [...fields].sort(), JSON.stringify(result.json));
    }
  });

  it('accepts rendition_count 1 to 5', async () => {
    for (const count of [1, 5]) {
      const result = await api('POST', '/v2/channel', { title: 't', description: '', region: 'north_america', rendition_count: count });
      assert.equal(result.status, 200);
      assert.match(result.json.config.publishing_point_primary, /^rtmp:\/\/ingest-na-1\./);
    }
  });

  it('answers 404 for unknown ids and routes', async () => {
    for (const path of [
      '/v2/playlist/999',
      '/v2/vod/999/embed/javascript',
      '/v2/channel/999/embed/iframe',
      '/v2/playlist/999/embed/javascript',
      '/v2/nothing',
      '/v2/vod/1/embed/flash',
    ]) {
      const result = await api('GET', path);
      assert.equal(result.status, 404, path);
      assert.equal(result.json.error.code, 'not_found');
    }
    assert.equal((await api('PUT', '/v2/playlist/999/content', { content: [] })).status, 404);
  });

  it('validates the playlist update: envelope, item fields, existing ids of the right type, positions 1..n', async () => {
    const playlist = (await api('POST', '/v2/playlist', { title: 'p', description: '' })).json;
    const channel = (await api('POST', '/v2/channel', { title: 'c', description: '', region: 'europe', rendition_count: 1 })).json;
    const path = `/v2/playlist/${playlist.id}/content`;
    const item = { id: channel.id, type: 'channel', position: '1' };
    const cases: [unknown, string][] = [
      [{}, 'content'],
      [{ content: 'not json' }, 'content'],
      [{ content: [{ ...item, type: 'movie' }] }, 'content[0].type'],
      [{ content: [{ ...item, position: 1 }] }, 'content[0].position'],
      [{ content: [{ ...item, position: '0' }] }, 'content[0].position'],
      [{ content: [{ ...item, id: '424242' }] }, 'content[0].id'],
      [{ content: [{ ...item, type: 'vod' }] }, 'content[0].id'],
      [{ content: [item, { ...item, position: '3' }] }, 'content'],
      [{ content: [item, { ...item }] }, 'content'],
      [{ content: JSON.stringify([{ ...item, type: 'movie' }]) }, 'content[0].type'],
    ];
    for (const [body, field] of cases) {
      const result = await api('PUT', path, body);
      assert.equal(result.status, 400, JSON.stringify(body));
      assert.ok(field in result.json.error.fields, `${JSON.stringify(body)} names ${field}: ${JSON.stringify(result.json)}`);
    }
    // Nothing changed by the refused updates; the same channel twice is a valid list.
    assert.equal((await api('GET', `/v2/playlist/${playlist.id}`)).json.content.list, null);
    const twice = await api('PUT', path, { content: [{ ...item, position: '2' }, item] });
    assert.equal(twice.status, 200);
    assert.deepEqual(twice.json.content.list.map((i: { position: string }) => i.position), ['1', '2']);
  });

  it('moves save_date strictly forward on every update, even within one millisecond', async () => {
    const playlist = (await api('POST', '/v2/playlist', { title: 'p', description: '' })).json;
    const dates = [playlist.save_date];
    const updates = await Promise.all(
      Array.from({ length: 5 }, () => api('PUT', `/v2/playlist/${playlist.id}/content`, { content: [] })),
    );
    dates.push(...updates.map((u) => u.json.save_date).sort());
    for (let i = 1; i < dates.length; i++) assert.ok(dates[i] > dates[i - 1], `${dates[i]} after ${dates[i - 1]}`);
  });

  it('refuses bodies over 1 MiB with 413', async () => {
    const result = await api('POST', '/v2/playlist', { title: 't', description: 'x'.repeat(1024 * 1024 + 10) });
    assert.equal(result.status, 413);
    assert.equal(result.json.error.code, 'payload_too_large');
  });
});
