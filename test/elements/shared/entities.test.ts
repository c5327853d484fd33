// The entity decoder of embed codes (shared/entities.ts; the player's load and the channel setup
// use it): the code decoded once as the HTML parser (`he`) decodes it, whether the decoder is the
// built-in one for the service's few references or `he`, loaded for any other.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import he from 'he';
import { MAX_CODE_LENGTH, parseEmbedCode } from '../../../src/core/embed-code.js';
import { decoderFor } from '../../../src/elements/shared/entities.js';

const decode = async (text: string) => (await decoderFor(text))(text);

describe('decoderFor', () => {
  const cases: [string, string][] = [
    ['&lt;script id=&quot;a&quot;&gt;&lt;/script&gt;', '<script id="a"></script>'],
    ['a &amp;amp; b', 'a &amp; b'], // once, not twice
    ['&#60;&#x3C;&#X3c;&#39;&apos;&#039;', "<<<'''"],
    ['&nbsp;', '\u00a0'],
    ['&#128512;', '😀'],
    ['&#127;&#31;', '\u007f\u001f'],
    ['plain text', 'plain text'],
    ['&unknown; & amp;', '&unknown; & amp;'], // not references: as written
    ['&#0; &#xD800; &#x110000;', '\ufffd \ufffd \ufffd'], // invalid code points: the replacement character, as the HTML parser
    ['&lt', '<'], // a legacy name needs no semicolon in HTML
    ['&amp;lt', '&lt'],
    ['&#0039;', "'"],
  ];
  for (const [input, output] of cases) {
    it(`${JSON.stringify(input)} -> ${JSON.stringify(output)}`, async () => assert.equal(await decode(input), output));
  }

  it('neither reads nor decodes a code longer than any accepted (the validator refuses it before decoding)', async () => {
    const code = '&lt;'.repeat(MAX_CODE_LENGTH / 4 + 1);
    const decoder = await decoderFor(code);
    assert.throws(() => decoder(code), { code: 'embed_rejected' });
    assert.deepEqual(parseEmbedCode(code, decoder, {}), { ok: false, reason: 'too_long' });
  });

  it('decodes as he does any code, and any quoted value of the markup it decodes to', async () => {
    // Codes made of the service's references, others, and pieces of references (a seeded generator: the same every run).
    const pieces = ['&amp;', '&lt;', '&gt;', '&quot;', '&#39;', '&#x27;', '&apos;', '&', 'amp;', 'lt', ';', '#', 'x', '3', '9', 'a', '"', "'", '=', ' ', '&eacute;', 'é', '&#128512;', '&#0;', '&#127;', '&#126;', '&#x7e;', '&#128;', '&#x80;', '&#159;', '&#160;', '&#255;', '&#x9F;', '&ap', '&amp;amp;', '&amp;eacute;', '&amp;quot;'];
    let seed = 7;
    const random = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), (seed >>> 8) % n);
    let built = 0;
    const codes = new Set<string>();
    for (let i = 0; i < 4000; i++) {
      const code = Array.from({ length: 1 + random(14) }, () => pieces[random(pieces.length)]).join('');
      codes.add(code);
      const decoder = await decoderFor(code);
      const markup = decoder(code);
      assert.equal(markup, he.decode(code), JSON.stringify(code));
      for (const value of markup.match(/"[^"]*"|'[^']*'/g) ?? []) assert.equal(decoder(value.slice(1, -1)), he.decode(value.slice(1, -1)), JSON.stringify([code, value]));
      // The built-in decoder refuses a reference only he decodes.
      try {
        decoder('&eacute;');
      } catch {
        built++;
      }
    }
    assert.ok(codes.size > 3500, `${codes.size} different codes`);
    assert.ok(built > 300, `the built-in decoder took ${built} of the codes`);
  });
});
