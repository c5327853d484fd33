// Loaded before the test framework in every browser test page (web-test-runner.config.mjs,
// testRunnerHtml). web-test-runner sends a file's results to Node through structuredClone, which
// throws on a DOM node or a function: a failed `expect(focused).to.equal(button)` keeps both
// elements in the error's `actual` and `expected`, the throw is lost in a promise, and the run
// waits for testsFinishTimeout without saying which test failed (modernweb-dev/web#2802, #2967).
// Here only the runner's own clone falls back to a copy that describes such values instead.

const clone = globalThis.structuredClone;

/** A short description of a value structuredClone refuses, e.g. `<button part="retry-button">`. */
function describe(value: unknown): string {
  if (typeof value === 'function') return `[function ${value.name || 'anonymous'}]`;
  if (value instanceof Element) {
    const html = value.outerHTML;
    const open = html.slice(0, html.indexOf('>') + 1) || `<${value.localName}>`;
    return open.length > 200 ? `${open.slice(0, 199)}…` : open;
  }
  if (value instanceof Node) return `[${value.nodeName}]`;
  return `[${Object.prototype.toString.call(value).slice(8, -1)}]`;
}

/** A copy of `value` in which every part structuredClone refuses is replaced by its description. */
function transportable(value: unknown, seen = new Map<object, unknown>()): unknown {
  if (typeof value === 'function') return describe(value);
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) return seen.get(value);
  try {
    const copy = clone(value);
    seen.set(value, copy);
    return copy;
  } catch {
    // refused as a whole: copied part by part below
  }
  if (value instanceof Node || value === globalThis) return describe(value);
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {};
  seen.set(value, copy);
  if (value instanceof Error) Object.assign(copy, { name: value.name, message: value.message, stack: value.stack });
  for (const [key, item] of Object.entries(value)) (copy as Record<string, unknown>)[key] = transportable(item, seen);
  return copy;
}

globalThis.structuredClone = function structuredClone(value: unknown, options?: StructuredSerializeOptions) {
  try {
    return clone(value, options);
  } catch (error) {
    // Only the runner's messages (its web socket module) fall back; the code under test sees the error.
    const fromRunner = new Error().stack?.includes('__web-dev-server__web-socket');
    if (!fromRunner || !(error instanceof DOMException && error.name === 'DataCloneError')) throw error;
    return clone(transportable(value), options);
  }
} as typeof globalThis.structuredClone;
