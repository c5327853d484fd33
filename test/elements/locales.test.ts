// Every shipped language has every string of every element and every error message, with the
// same placeholders as English (a missing `{name}` would show a blank; an extra one would show
// braces), and is really translated rather than copied.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ERROR_CODES } from '../../src/core/errors.js';
import { LOCALES, errorStrings } from '../../src/elements/shared/strings.js';
import { defaultStrings as channelSetup } from '../../src/elements/svc-channel-setup/strings.js';
import { defaultStrings as player } from '../../src/elements/svc-player/strings.js';
import { defaultStrings as playlistEditor } from '../../src/elements/svc-playlist-editor/strings.js';
import { defaultStrings as uploader } from '../../src/elements/svc-uploader/strings.js';
import type { Translation } from '../../src/elements/locales/translation.js';

const english: Record<keyof Translation, Record<string, string>> = {
  errors: errorStrings,
  'svc-player': player,
  'svc-uploader': uploader,
  'svc-playlist-editor': playlistEditor,
  'svc-channel-setup': channelSetup,
};

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('shipped translations', () => {
  it('cover the error codes', () => assert.deepEqual(Object.keys(errorStrings).sort(), [...ERROR_CODES].sort()));

  for (const locale of LOCALES.filter((l) => l !== 'en')) {
    it(`${locale}: every string of every element, with the English placeholders, translated`, async () => {
      const { default: translation } = (await import(`../../src/elements/locales/${locale}.ts`)) as { default: Translation };
      for (const [part, strings] of Object.entries(english) as [keyof Translation, Record<string, string>][]) {
        const translated = translation[part] as Record<string, string>;
        assert.deepEqual(Object.keys(translated).sort(), Object.keys(strings).sort(), `${locale} ${part}: keys`);
        let copied = 0;
        for (const [key, text] of Object.entries(strings)) {
          assert.equal(typeof translated[key], 'string', `${locale} ${part}.${key}`);
          assert.ok(translated[key]!.trim(), `${locale} ${part}.${key} is empty`);
          assert.deepEqual(placeholders(translated[key]!), placeholders(text), `${locale} ${part}.${key}: placeholders`);
          if (translated[key] === text) copied++;
        }
        assert.ok(copied <= Math.ceil(Object.keys(strings).length * 0.1), `${locale} ${part}: ${copied} strings left in English`);
      }
    });
  }
});
