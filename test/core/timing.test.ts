import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { backoffDelay, delay } from '../../src/core/timing.js';

describe('backoffDelay', () => {
  const cases: [number, number, number][] = [
    [1, 0, 250],
    [1, 1, 500],
    [2, 1, 1000],
    [3, 0.5, 1500],
    [10, 1, 4000],
  ];
  for (const [attempt, random, expected] of cases) {
    it(`attempt ${attempt} with random ${random}`, () => {
      assert.equal(backoffDelay(attempt, 500, 4000, () => random), expected);
    });
  }
});

describe('delay', () => {
  it('resolves at once when its signal has aborted, and when it aborts while waiting', async () => {
    const controller = new AbortController();
    const waiting = delay(3_600_000, controller.signal);
    controller.abort();
    await waiting;
    await delay(3_600_000, controller.signal);
  });
});
