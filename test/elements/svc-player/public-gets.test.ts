// The player's two requests go through RelayClient's public GETs: no custom header, no token and no
// credentials (a simple, cacheable cross-origin request, no preflight), while the identified routes
// keep them; an embed answer without a string code is refused in core (src/core/relay-client.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RelayClient } from '../../../src/core/relay-client.js';
import { SvcError } from '../../../src/core/errors.js';

const CONFIG = { upload_url: 'u', player_origin: 'https://player.example', iframe_origins: [], max_upload_bytes: 1, regions: ['europe'], rendition_count: { min: 1, max: 1 } };

function recording(answer: (url: string) => unknown) {
  const sent: { url: string; init: RequestInit | undefined }[] = [];
  const fetch = (async (url: string, init?: RequestInit) => {
    sent.push({ url, init });
    return new Response(JSON.stringify(answer(url)), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  return { sent, fetch };
}

describe('RelayClient public GETs (the player’s network)', () => {
  it('config() and embed() send no header, no token and no credentials; library() sends them', async () => {
    const { sent, fetch } = recording((url) => (url.endsWith('/config') ? CONFIG : url.includes('/embed/') ? { code: '&lt;x&gt;' } : { items: [] }));
    const client = new RelayClient({ baseUrl: 'https://relay.example/svc-public-gets', token: () => 'secret', fetch });
    const signal = new AbortController().signal;
    assert.deepEqual(await client.config(), CONFIG);
    assert.deepEqual(await client.embed('vod', 'A-1_b', 'iframe', signal), { code: '&lt;x&gt;' });
    await client.library();
    assert.deepEqual(
      sent.map(({ url }) => url),
      ['https://relay.example/svc-public-gets/config', 'https://relay.example/svc-public-gets/embed/vod/A-1_b/iframe', 'https://relay.example/svc-public-gets/library'],
    );
    assert.deepEqual(sent[0]!.init, { signal: undefined });
    assert.deepEqual(sent[1]!.init, { signal });
    const identified = sent[2]!.init!;
    assert.equal(identified.credentials, 'include');
    assert.deepEqual(identified.headers, { 'X-Svc-Request': '1', Authorization: 'Bearer secret' });
  });

  it('refuses an embed answer whose code is not a string (embed_rejected)', async () => {
    for (const body of [{ nothing: true }, { code: 42 }, null]) {
      const { fetch } = recording(() => body);
      const client = new RelayClient({ baseUrl: 'https://relay.example/svc', fetch });
      await assert.rejects(client.embed('vod', '1', 'javascript'), (error) => error instanceof SvcError && error.code === 'embed_rejected');
    }
  });
});
