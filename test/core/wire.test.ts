import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { maskCallbackTokens } from '../../src/core/wire.js';

const TOKEN = 'Ab_9-'.repeat(8) + 'xyz';

describe('maskCallbackTokens', () => {
  const cases: [string, string, string][] = [
    ['a path', `/svc/callbacks/upload/${TOKEN}`, '/svc/callbacks/upload/[token]'],
    ['a callback URL in upstream text', `bad callback_url https://cms.example/svc/callbacks/upload/${TOKEN}, sorry`, 'bad callback_url https://cms.example/svc/callbacks/upload/[token], sorry'],
    ['percent-encoded, any case', `callback_url=https%3A%2F%2Fcms%2FCallbacks%2FUpload%2F${TOKEN}&x=1`, 'callback_url=https%3A%2F%2Fcms%2FCallbacks%2FUpload%2F[token]&x=1'],
    ['inside a JSON log line', `{"path":"/svc/callbacks/upload/${TOKEN}","status":404}`, '{"path":"/svc/callbacks/upload/[token]","status":404}'],
    ['every token of a text', `callbacks/upload/${TOKEN} callbacks/upload/${TOKEN}`, 'callbacks/upload/[token] callbacks/upload/[token]'],
    ['a path after the token kept', `/svc/callbacks/upload/${TOKEN}/more`, '/svc/callbacks/upload/[token]/more'],
    ['other paths untouched', '/svc/uploads/up_1', '/svc/uploads/up_1'],
  ];
  for (const [what, text, expected] of cases) {
    it(what, () => assert.equal(maskCallbackTokens(text), expected));
  }
});
