// Which relay an element may use and which origins its player may come from: only what the page's
// head and the owner's relay say; attributes narrow, never widen.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { narrowOrigins } from '../../src/core/narrow-origins.js';
import { chooseRelay, relayBaseUrl, type RelayPage } from '../../src/core/relay-url.js';

const PAGE = 'https://cms.example/blog/post-1';

/** A document whose head holds `metas` (name → content) and whose body holds `bodyMetas`. */
function page(metas: Record<string, string> = {}, bodyMetas: Record<string, string> = {}): RelayPage {
  const finder = (entries: Record<string, string>) => (selector: string) => {
    const name = /name="([^"]+)"/.exec(selector)?.[1] ?? '';
    return name in entries ? ({ getAttribute: () => entries[name] } as unknown as Element) : null;
  };
  return { head: { querySelector: finder(metas) }, querySelector: finder({ ...bodyMetas, ...metas }) };
}

describe('chooseRelay', () => {
  const cases: [string, string | null, RelayPage, { baseUrl: string; trustedUrl: string } | 'refused'][] = [
    ['no attribute: the page’s own /svc', null, page(), { baseUrl: 'https://cms.example/svc', trustedUrl: 'https://cms.example/svc' }],
    ['no attribute: the head’s svc-relay', null, page({ 'svc-relay': 'https://video.example/svc/' }), { baseUrl: 'https://video.example/svc', trustedUrl: 'https://video.example/svc' }],
    ['a body meta is an author’s: ignored', null, page({}, { 'svc-relay': 'https://evil.example/svc' }), { baseUrl: 'https://cms.example/svc', trustedUrl: 'https://cms.example/svc' }],
    ['the owner’s relay, spelled absolutely', 'https://cms.example/svc/', page(), { baseUrl: 'https://cms.example/svc', trustedUrl: 'https://cms.example/svc' }],
    ['another path on the owner relay’s origin: trust stays the owner’s', '/other', page(), { baseUrl: 'https://cms.example/other', trustedUrl: 'https://cms.example/svc' }],
    ['a relay path on the owner’s origin, listed by its URL: a relay of the owner’s', '/auth-svc/', page({ 'svc-relay-origins': 'https://cms.example/auth-svc' }), { baseUrl: 'https://cms.example/auth-svc', trustedUrl: 'https://cms.example/auth-svc' }],
    ['a listed relay URL covers no other path', '/auth-svc/x', page({ 'svc-relay-origins': 'https://cms.example/auth-svc' }), { baseUrl: 'https://cms.example/auth-svc/x', trustedUrl: 'https://cms.example/svc' }],
    ['a relay URL listed on another origin: that relay only', 'https://b.example/svc', page({ 'svc-relay-origins': 'https://b.example/svc' }), { baseUrl: 'https://b.example/svc', trustedUrl: 'https://b.example/svc' }],
    ['a relay URL listed on another origin covers no other path', 'https://b.example/upload', page({ 'svc-relay-origins': 'https://b.example/svc' }), 'refused'],
    ['another origin', 'https://evil.example/svc', page(), 'refused'],
    ['protocol-relative other origin', '//evil.example/svc', page(), 'refused'],
    ['another origin, listed in the head', 'https://b.example/svc', page({ 'svc-relay-origins': 'https://a.example  https://b.example/' }), { baseUrl: 'https://b.example/svc', trustedUrl: 'https://b.example/svc' }],
    ['another origin, listed only in the body', 'https://evil.example/svc', page({}, { 'svc-relay-origins': 'https://evil.example' }), 'refused'],
    ['the page’s origin when the owner’s relay is elsewhere', '/svc', page({ 'svc-relay': 'https://video.example/svc' }), 'refused'],
    ['a query', '/svc?x=', page(), 'refused'],
    ['a fragment', '/svc#x', page(), 'refused'],
    ['credentials', 'https://user:pw@cms.example/svc', page(), 'refused'],
    ['javascript:', 'javascript:alert(1)', page(), 'refused'],
    ['data:', 'data:application/json,{}', page(), 'refused'],
    ['not a URL', 'http://[', page(), 'refused'],
    ['the head’s svc-relay is not a URL: nothing is trusted', null, page({ 'svc-relay': 'http://[' }), 'refused'],
  ];
  for (const [name, explicit, doc, expected] of cases) {
    it(name, () => {
      const choice = chooseRelay(explicit, doc, PAGE);
      if (expected === 'refused') assert.ok('refused' in choice && choice.refused.length > 0, JSON.stringify(choice));
      else assert.deepEqual(choice, expected);
    });
  }

  it('relayBaseUrl keeps its fallbacks, reading the meta from the head only', () => {
    assert.equal(relayBaseUrl('https://a.example/svc/', page()), 'https://a.example/svc');
    assert.equal(relayBaseUrl(null, page({ 'svc-relay': '/api/svc' })), '/api/svc');
    assert.equal(relayBaseUrl(null, page({}, { 'svc-relay': '/evil' })), '/svc');
  });
});

describe('narrowOrigins', () => {
  const config = { player_origin: 'https://player.example', iframe_origins: ['https://player.example', 'https://frames.example'] };
  it('without attributes gives the relay’s origins', () => {
    assert.deepEqual(narrowOrigins(config, {}), { playerOrigin: 'https://player.example', iframeOrigins: ['https://player.example', 'https://frames.example'] });
  });
  it('narrows: player-origin alone keeps only that origin for frames; iframe-origins picks some', () => {
    assert.deepEqual(narrowOrigins(config, { playerOrigin: 'https://player.example/' }), { playerOrigin: 'https://player.example', iframeOrigins: ['https://player.example'] });
    assert.deepEqual(narrowOrigins(config, { iframeOrigins: ' https://frames.example ' }), { playerOrigin: 'https://player.example', iframeOrigins: ['https://frames.example'] });
  });
  const refused: [string, { playerOrigin?: string; iframeOrigins?: string }][] = [
    ['another player origin', { playerOrigin: 'https://evil.example' }],
    ['a player origin that is only an iframe origin', { playerOrigin: 'https://frames.example' }],
    ['not an origin', { playerOrigin: 'javascript:1' }],
    ['an iframe origin outside the relay’s', { iframeOrigins: 'https://frames.example https://evil.example' }],
  ];
  for (const [name, attributes] of refused) {
    it(`refuses ${name}`, () => assert.ok('refused' in narrowOrigins(config, attributes)));
  }
  it('refuses any player-origin when the relay names none', () => {
    assert.ok('refused' in narrowOrigins({}, { playerOrigin: 'https://player.example' }));
  });
});
