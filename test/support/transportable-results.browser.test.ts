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
    expect(sent.self).to.equal('[Circular]');
  });

  it('describes symbols, unreadable properties, collections and errors of what it copies', async () => {
    const hostile = {
      symbol: Symbol('s'),
      get broken(): never {
        throw new Error('no access');
      },
      map: new Map<string, unknown>([['button', document.createElement('button')]]),
      set: new Set([document.createElement('i')]),
      error: Object.assign(new Error('outer', { cause: new Error('inner') }), { actual: document.body }),
      fragment: document.createDocumentFragment(),
    };
    const sent = JSON.parse((await runnerStable())(hostile));
    expect(sent.symbol).to.equal('Symbol(s)');
    expect(sent.broken).to.equal('[unreadable: Error: no access]');
    expect(sent.map).to.deep.equal([['button', '<button>']]);
    expect(sent.set).to.deep.equal(['<i>']);
    expect(sent.error.message).to.equal('outer');
    expect(sent.error.actual).to.equal('<body>');
    expect(sent.error.cause.message).to.equal('inner');
    expect(sent.fragment).to.equal('[#document-fragment]');
  });

  it('leaves structuredClone as it is for the code under test', () => {
    expect(() => structuredClone({ el: document.createElement('div') })).to.throw(DOMException);
    expect(structuredClone({ a: [1, { b: 'c' }] })).to.deep.equal({ a: [1, { b: 'c' }] });
  });
});
