// The one `format()` of the elements: placeholders filled, numbers written in the viewer's locale.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { format } from '../../../src/elements/shared/intl.js';

describe('format', () => {
  const cases: [string, Record<string, string | number>, string | undefined, string][] = [
    ['{name}: ready.', { name: 'clip.mp4' }, 'en', 'clip.mp4: ready.'],
    ['{a} and {missing}', { a: 'x' }, 'en', 'x and {missing}'],
    ['{count} items', { count: 1234 }, 'en', '1,234 items'],
    ['{count} Einträge', { count: 1234 }, 'de', '1.234 Einträge'],
    ['{count} éléments', { count: 1234.5 }, 'fr', `${new Intl.NumberFormat('fr').format(1234.5)} éléments`],
    ['{position} / {count}', { position: 3, count: 12 }, 'ar-EG', '٣ / ١٢'],
    ['{id}', { id: '1234' }, 'de', '1234'],
    ['{v}', { v: 'has {v} inside' }, 'en', 'has {v} inside'],
  ];
  for (const [template, values, locale, text] of cases) {
    it(`${template} (${locale}) -> ${text}`, () => assert.equal(format(template, values, locale), text));
  }
});
