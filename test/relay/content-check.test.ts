// A file that is not a video, signed and delivered past the uploader's own check (another client,
// or a renamed file sent by hand): the local service refuses to encode it and sends no callback,
// as a real service would not announce a VOD it could not make. The relay must not leave the
// upload "processing" for ever: once its callback token has expired it shows it as failed, with an
// event on the owner's stream. (SVC_CALLBACK_TTL_S is short here; its default is 7 days.)
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { startStack, type Stack } from '../support/servers.js';
import { SseReader, describeStores } from './helpers.js';

const H = { 'Content-Type': 'application/json', 'X-Svc-Request': '1' };

describeStores('an upload the service refuses to encode', (store) => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ processingMs: 50, relay: { callbackTtlS: 2, database: await store.database() } });
  });
  after(() => stack?.close());

  it('ends failed (not stuck processing) after the callback TTL, and the stream says so', async () => {
    const text = new TextEncoder().encode('These are my notes, not a video.\n'.repeat(40));
    const signed = await fetch(`${stack.relayUrl}/uploads`, {
      method: 'POST',
      headers: H,
      body: JSON.stringify({ source: 'notes.mp4', size: text.byteLength, type: 'video/mp4' }),
    });
    assert.equal(signed.status, 201);
    const { upload_id, upload_url, fields } = (await signed.json()) as { upload_id: string; upload_url: string; fields: [string, string][] };
    const stream = new SseReader(await fetch(`${stack.relayUrl}/events`, { headers: { 'X-Svc-Request': '1' } }));
    const form = new FormData();
    for (const [name, value] of fields) form.append(name, value);
    form.append('file', new Blob([text], { type: 'video/mp4' }), 'notes.mp4');
    const posted = await fetch(upload_url, { method: 'POST', body: form });
    assert.ok(posted.ok, `the upload address stores any bytes (${posted.status})`);
    const marked = await fetch(`${stack.relayUrl}/uploads/${upload_id}/uploaded`, { method: 'POST', headers: H, body: '{}' });
    assert.equal(((await marked.json()) as { state: string }).state, 'processing');

    await stream.until(() => stream.events.some((e) => e.data.upload_id === upload_id && e.data.state === 'failed'), 'a failed event');
    const state = (await (await fetch(`${stack.relayUrl}/uploads/${upload_id}`, { headers: H })).json()) as { state: string; vod?: unknown };
    assert.equal(state.state, 'failed');
    assert.equal(state.vod, undefined);
    const control = (await (await fetch(`${stack.controlUrl}/state`)).json()) as { callbacks: unknown[] };
    assert.deepEqual(control.callbacks, [], 'the service sent no callback for it');
    await stream.close();
  });
});
