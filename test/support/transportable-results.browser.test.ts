// The results shim (transportable-results.ts): the runner's own message clone describes DOM nodes
// and functions instead of throwing (which left a failed file hanging), and nothing else changes.
import { expect } from '@open-wc/testing';

declare const describe: (name: string, body: () => void) => void;
declare const it: (name: string, body: () => Promise<void> | void) => void;

/** The runner's message serializer, from the module that sends results to Node. */
async function runnerStable(): Promise<(value: unknown) => string> {
  const url = '/__web-dev-server__web-socket.js';
  return ((await import(/* @vite-ignore */ url)) as { stable(value: unknown): string }).stable;
}

describe('results sent to the runner', () => {
  it('describe the elements and functions of a failed assertion instead of throwing', async () => {
    const button = document.createElement('button');
    button.setAttribute('part', 'retry-button');
    button.textContent = 'Retry';
    const error = Object.assign(new Error('expected a to equal b'), { actual: button, expected: document.body });
    const message = {
      type: 'wtr-session-finished',
      result: { tests: [{ name: 'focus', passed: false, error: { message: error.message, actual: error.actual, expected: error.expected } }] },
      handler: function onDone() {},
    };
    const sent = JSON.parse((await runnerStable())(message));
    expect(sent.result.tests[0].error).to.deep.equal({
      message: 'expected a to equal b',
      actual: '<button part="retry-button">',
      expected: '<body>',
    });
    expect(sent.handler).to.equal('[function onDone]');
    expect(sent.type).to.equal('wtr-session-finished');
  });

  it('keeps cycles and cloneable values as they were', async () => {
    const node = { name: 'n', when: new Date(0), list: [1, 'two'], self: undefined as unknown, el: document.createElement('p') };
    node.self = node;
    const sent = JSON.parse((await runnerStable())(node));
    expect(sent.name).to.equal('n');
    expect(sent.when).to.equal(new Date(0).toJSON());
    expect(sent.list).to.deep.equal([1, 'two']);
    expect(sent.el).to.equal('<p>');
  });

  it('leaves structuredClone as it is for the code under test', () => {
    expect(() => structuredClone({ el: document.createElement('div') })).to.throw(DOMException);
    expect(structuredClone({ a: [1, { b: 'c' }] })).to.deep.equal({ a: [1, { b: 'c' }] });
  });
});
