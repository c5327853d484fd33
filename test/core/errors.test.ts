// Only a failure of the network itself becomes `network_error`: a programming error must never
// tell the user to check their connection.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SvcError, networkError, toSvcError } from '../../src/core/errors.js';

const abort = new DOMException('The operation was aborted.', 'AbortError');
const own = new SvcError('conflict', 'stale', 409);

describe('toSvcError', () => {
  const cases: [string, unknown, string, string?][] = [
    ['an SvcError as it is', own, 'conflict', 'stale'],
    ['a cancellation', abort, 'aborted'],
    ['a TypeError from code (not the network)', new TypeError("Cannot read properties of undefined (reading 'id')"), 'internal', "Cannot read properties of undefined (reading 'id')"],
    ['a RangeError', new RangeError('Invalid time value'), 'internal', 'Invalid time value'],
    ['a thrown string', 'boom', 'internal', 'boom'],
  ];
  for (const [name, error, code, message] of cases) {
    it(name, () => {
      const failure = toSvcError(error);
      assert.equal(failure.code, code);
      if (message) assert.equal(failure.message, message);
    });
  }
});

describe('networkError (what a fetch threw)', () => {
  const cases: [string, unknown, string][] = [
    ['a failed fetch', new TypeError('Failed to fetch'), 'network_error'],
    ['a broken body read', new TypeError('network error'), 'network_error'],
    ['a cancellation', abort, 'aborted'],
    ['an SvcError as it is', own, 'conflict'],
  ];
  for (const [name, error, code] of cases) it(name, () => assert.equal(networkError(error).code, code));
});
