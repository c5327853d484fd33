// Telling a relay that refused the page's origin (CORS) from one that cannot be reached: both make
// fetch throw the same TypeError; a second request in no-cors mode tells them apart.
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SvcError } from '../../src/core/errors.js';
import { explainFetchFailure } from '../../src/core/fetch-failure.js';

const failed = new TypeError('Failed to fetch');
const page = (href: string) => Object.defineProperty(globalThis, 'location', { value: new URL(href), configurable: true });

/** A fetch that records its calls and answers (or throws) as told. */
function probe(answer: 'opaque' | 'throws') {
  const calls: { url: string; init?: RequestInit }[] = [];
  const fetch = (async (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    if (answer === 'throws') throw new TypeError('Failed to fetch');
    return new Response(null, { status: 200 });
  }) as unknown as typeof globalThis.fetch;
  return { calls, fetch };
}

describe('explainFetchFailure', () => {
  afterEach(() => Reflect.deleteProperty(globalThis, 'location'));

  it('a relay on another origin that answers the no-cors probe refused the page origin', async () => {
    page('https://www.example.com/blog/post');
    const { calls, fetch } = probe('opaque');
    const error = await explainFetchFailure('https://relay.example.com:8787/svc/config', failed, fetch);
    assert.equal(error.code, 'origin_not_allowed');
    assert.match(error.message, /This page's origin \(https:\/\/www\.example\.com\) is not allowed by the relay at https:\/\/relay\.example\.com:8787/);
    assert.match(error.message, /SVC_ALLOWED_ORIGINS/);
    assert.equal(calls.length, 1);
    assert.equal(calls[0]!.init?.mode, 'no-cors');
    assert.equal(calls[0]!.init?.credentials, 'omit');
  });

  it('a relay that does not answer the probe either cannot be reached', async () => {
    page('http://localhost:8080/');
    const { fetch } = probe('throws');
    const error = await explainFetchFailure('http://localhost:8787/svc/config', failed, fetch);
    assert.equal(error.code, 'relay_unreachable');
    assert.match(error.message, /The relay at http:\/\/localhost:8787 cannot be reached/);
    assert.doesNotMatch(error.message, /SVC_ALLOWED_ORIGINS/);
  });

  it('on the page origin there is no CORS, so no probe: unreachable', async () => {
    page('https://www.example.com/');
    const { calls, fetch } = probe('opaque');
    const error = await explainFetchFailure('/svc/config', failed, fetch);
    assert.equal(error.code, 'relay_unreachable');
    assert.equal(calls.length, 0);
  });

  it('outside a page (Node, workers without location) there is no CORS either', async () => {
    const { calls, fetch } = probe('opaque');
    const error = await explainFetchFailure('http://127.0.0.1:9/svc/config', failed, fetch);
    assert.equal(error.code, 'relay_unreachable');
    assert.equal(calls.length, 0);
  });

  it('leaves other failures as they are', async () => {
    const { calls, fetch } = probe('opaque');
    const aborted = await explainFetchFailure('https://relay.example/svc/config', new DOMException('x', 'AbortError'), fetch);
    assert.equal(aborted.code, 'aborted');
    const relayError = new SvcError('rate_limited', 'Slow down.', 429);
    assert.equal(await explainFetchFailure('https://relay.example/svc/config', relayError, fetch), relayError);
    assert.equal(calls.length, 0);
  });
});
