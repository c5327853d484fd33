// The entity decoder of embed codes (`he`, loaded as a chunk; the player's load and the channel setup use it): the embed code a panel shows as text is what the HTML parser would
// make of it, decoded once.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadDecoder } from '../../../src/elements/shared/entities.js';

describe('loadDecoder', () => {
  const cases: [string, string][] = [
    ['&lt;script id=&quot;a&quot;&gt;&lt;/script&gt;', '<script id="a"></script>'],
    ['a &amp;amp; b', 'a &amp; b'], // once, not twice
    ['&#60;&#x3C;&#X3c;&#39;&apos;', "<<<''"],
    ['&nbsp;', '\u00a0'],
    ['&#128512;', '😀'],
    ['plain text', 'plain text'],
    ['&unknown; & amp;', '&unknown; & amp;'], // not references: as written
    ['&#0; &#xD800; &#x110000;', '\ufffd \ufffd \ufffd'], // invalid code points: the replacement character, as the HTML parser
    ['&lt', '<'], // a legacy name needs no semicolon in HTML
  ];
  for (const [input, output] of cases) {
    it(`${JSON.stringify(input)} -> ${JSON.stringify(output)}`, async () => assert.equal((await loadDecoder())(input), output));
  }
});
