// The DOM-free helpers of <svc-channel-setup>: entity decoding for the embed code display, string
// templates, and the credential-free channel that leaves the element in events.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeEntities } from '../../../src/elements/svc-channel-setup/decode-entities.js';
import { publicChannel } from '../../../src/elements/svc-channel-setup/public-channel.js';
import { format } from '../../../src/elements/shared/strings.js';
import { defaultStrings } from '../../../src/elements/svc-channel-setup/strings.js';
import type { Channel } from '../../../src/service/types.js';

describe('decodeEntities', () => {
  const cases: [string, string][] = [
    ['&lt;script id=&quot;a&quot;&gt;&lt;/script&gt;', '<script id="a"></script>'],
    ['a &amp;amp; b', 'a &amp; b'], // once, not twice
    ['&#60;&#x3C;&#X3c;&#39;&apos;', "<<<''"],
    ['&nbsp;', '\u00a0'],
    ['&unknown; &#0; &#xD800; &#x110000; & amp;', '&unknown; &#0; &#xD800; &#x110000; & amp;'],
    ['&#128512;', '😀'],
    ['plain text', 'plain text'],
    ['&lt', '&lt'], // no semicolon: left as written
  ];
  for (const [input, output] of cases) {
    it(`${JSON.stringify(input)} -> ${JSON.stringify(output)}`, () => assert.equal(decodeEntities(input), output));
  }
});

describe('format', () => {
  it('fills placeholders and leaves unknown ones', () => {
    assert.equal(format(defaultStrings.renditionInvalid, { min: 1, max: 5 }), 'Enter a whole number from 1 to 5.');
    assert.equal(format('{a} {b} {a}', { a: 'x' }), 'x {b} x');
  });
});

describe('publicChannel', () => {
  const channel = {
    id: 'c1',
    title: 'T',
    password: 'top-level-secret',
    share_code: { facebook: 'f', gplus: 'g', twitter: 't' },
    config: {
      publishing_point_primary: 'rtmp://p/live',
      publishing_point_backup: 'rtmp://b/live',
      login: 'the-login',
      password: 'the-password',
      stream_name: 'the-stream-key',
      live_transcoding: true,
      publishing_point_type: null,
    },
  } as unknown as Channel;

  it('drops login, password, stream key and the top-level password, and keeps the rest', () => {
    const result = publicChannel(channel);
    assert.deepEqual(result, {
      id: 'c1',
      title: 'T',
      share_code: { facebook: 'f', gplus: 'g', twitter: 't' },
      config: {
        publishing_point_primary: 'rtmp://p/live',
        publishing_point_backup: 'rtmp://b/live',
        live_transcoding: true,
        publishing_point_type: null,
      },
    });
    for (const secret of ['top-level-secret', 'the-login', 'the-password', 'the-stream-key']) {
      assert.ok(!JSON.stringify(result).includes(secret));
    }
  });

  it('returns a copy that cannot change the element’s channel', () => {
    const result = publicChannel(channel);
    result.share_code.facebook = 'changed';
    assert.equal(channel.share_code.facebook, 'f');
  });
});
