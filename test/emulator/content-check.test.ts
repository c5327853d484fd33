// The local service, like the real one, cannot encode a file that is not a video: the upload is
// stored (the upload address does not look inside files), but the VOD never becomes ready, no
// callback is sent for it, and no player shows it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { createLocalService, type LocalService } from '../../src/emulator/app.js';
import { makeVideo } from '../support/media.js';
import { call, CallbackReceiver, uploadForm, waitFor } from './helpers.js';

describe('the local service refuses to encode what is not a video', () => {
  let service: LocalService;
  let receiver: CallbackReceiver;
  const logs: { event: string; fields: Record<string, unknown> }[] = [];

  before(async () => {
    receiver = await CallbackReceiver.start();
    const record = (event: string, fields: Record<string, unknown> = {}) => void logs.push({ event, fields });
    service = await createLocalService({ processingMs: 100, logger: { info: record, warn: record } });
  });
  after(async () => {
    await service?.close();
    await receiver.close();
  });

  async function upload(name: string, bytes: Uint8Array<ArrayBuffer>): Promise<string> {
    const signed = await call(service.baseUrl, 'POST', '/v2/vod', { source: name, upload_type: 'ajax', callback_url: receiver.url });
    assert.equal(signed.status, 200, JSON.stringify(signed.json));
    const response = await fetch(service.uploadUrl, { method: 'POST', body: uploadForm(signed.json, new Blob([bytes]), name) });
    assert.ok(response.ok, await response.text());
    return /^vod\/(\d+)\//.exec(signed.json.key)![1]!;
  }

  it('sends no ready callback for a text file named .mp4, and does for a real video uploaded after it', async () => {
    const fake = await upload('notes.mp4', new TextEncoder().encode('Meeting notes, not a video.\n'.repeat(50)));
    const real = await upload('clip.mp4', readFileSync(makeVideo({ seconds: 1 })));
    await waitFor(() => receiver.received.find((r) => r.fields.file_id === real), 'the real video’s callback');
    // The positive signal that the text file was dealt with: the service logs why it failed.
    await waitFor(() => logs.some((line) => line.event === 'vod_failed' && line.fields.vod_id === fake), 'the text file’s failure');
    assert.deepEqual(
      receiver.received.filter((r) => r.fields.file_id === fake),
      [],
      'no callback for the file that is not a video',
    );
    assert.ok(logs.some((line) => line.event === 'vod_failed' && line.fields.vod_id === fake && line.fields.reason === 'not_a_video'));
    // Not playable: the player origin and the embed operation do not offer it.
    const content = await fetch(`${service.playerUrl}/api/content/${service.accountId}-vod-${fake}`);
    assert.equal(content.status, 404);
    await content.body?.cancel();
    const playable = await fetch(`${service.playerUrl}/api/content/${service.accountId}-vod-${real}`);
    assert.equal(playable.status, 200);
    await playable.body?.cancel();
  });
});
