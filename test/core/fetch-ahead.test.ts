// Requests sent ahead (core/fetch-ahead.ts), as the script-tag loader's play button sends a player's
// two, against a real HTTP server: the relay client with the page's fetch takes each answer once
// instead of asking again; a client with its own fetch never does; a failed one, an expired one and
// a config the page already shares are not kept or not sent.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it, mock } from 'node:test';
import { fetchAhead, takeAhead } from '../../src/core/fetch-ahead.js';
import { RelayClient } from '../../src/core/relay-client.js';

let server: Server;
let origin: string;
/** The paths the server was asked for, in order. */
const asked: string[] = [];

before(async () => {
  server = createServer((req, res) => {
    asked.push(req.url!);
    if (req.url!.startsWith('/failing/')) return void req.socket.destroy(); // a network error
    const body = req.url!.endsWith('/config') ? { player_origin: 'https://player.example' } : { code: `&lt;code of ${req.url}&gt;` };
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

after(() => new Promise((resolve) => server.close(resolve)));

let relays = 0;
/** A relay base URL of its own (the answers kept are per URL, the config per relay). */
const relay = () => `${origin}/r${++relays}`;
const count = (path: string) => asked.filter((each) => each === path).length;

/** `fetchAhead` with its one-minute timer on a mock clock (a real one would hold the test process for a minute). */
function sendAhead(url: string): void {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    fetchAhead(url);
  } finally {
    mock.timers.reset();
  }
}

describe('requests sent ahead', () => {
  it("are taken by the relay client's embed and config requests instead of asking again, once", async () => {
    const base = relay();
    sendAhead(`${base}/embed/vod/v1/javascript`);
    sendAhead(`${base}/config`);
    const client = new RelayClient({ baseUrl: base });
    const [embed, config] = await Promise.all([client.embed('vod', 'v1', 'javascript'), client.config()]);
    assert.equal(embed.code, `&lt;code of /r${relays}/embed/vod/v1/javascript&gt;`);
    assert.equal(config.player_origin, 'https://player.example');
    assert.deepEqual([count(`/r${relays}/embed/vod/v1/javascript`), count(`/r${relays}/config`)], [1, 1]);
    // Taken: the next load of the same content asks for itself.
    await client.embed('vod', 'v1', 'javascript');
    assert.equal(count(`/r${relays}/embed/vod/v1/javascript`), 2);
  });

  it('are not taken by a client with a fetch of its own', async () => {
    const base = relay();
    sendAhead(`${base}/embed/vod/v2/javascript`);
    let own = 0;
    const client = new RelayClient({ baseUrl: base, fetch: (input, init) => (own++, fetch(input, init)) });
    await client.embed('vod', 'v2', 'javascript');
    assert.equal(own, 1);
    // Still there for the page's own client.
    assert.ok(takeAhead(`${base}/embed/vod/v2/javascript`));
  });

  it('are forgotten when they fail, and after a minute', async () => {
    // Asked ahead again until a second request leaves: only once the first was forgotten.
    const failing = `${origin}/failing/config`;
    for (let waited = 0; count('/failing/config') < 2; waited += 10) {
      assert.ok(waited < 5000, 'the failed request was forgotten');
      sendAhead(failing);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }

    const base = relay();
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      fetchAhead(`${base}/config`);
      mock.timers.tick(60_000);
      assert.equal(takeAhead(`${base}/config`), undefined);
    } finally {
      mock.timers.reset();
    }
  });

  it("reject with the taker's abort reason", async () => {
    const base = relay();
    sendAhead(`${base}/config`);
    const controller = new AbortController();
    const reason = new Error('gone');
    controller.abort(reason);
    await assert.rejects(takeAhead(`${base}/config`, controller.signal)!, (error) => error === reason);
  });

  it('send nothing for a config the page already has', async () => {
    const base = relay();
    await new RelayClient({ baseUrl: base }).config();
    sendAhead(`${base}/config`);
    assert.equal(takeAhead(`${base}/config`), undefined);
    assert.equal(count(`/r${relays}/config`), 1);
  });
});
