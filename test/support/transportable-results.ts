// Loaded before the test framework in every browser test page (web-test-runner.config.mjs,
// testRunnerHtml). web-test-runner sends a file's results to Node through structuredClone, which
// throws on a DOM node or a function: a failed `expect(focused).to.equal(button)` keeps both
// elements in the error's `actual` and `expected`, the throw is lost in a promise, and the run
// waits for testsFinishTimeout without saying which test failed (modernweb-dev/web#2802, #2967).
// Here only the runner's own clone falls back to a copy that describes such values instead.

const clone = globalThis.structuredClone;
const MAX_DEPTH = 20;

/** A short description of a value structuredClone refuses, e.g. `<button part="retry-button">`. */
function describe(value: unknown): string {
  if (typeof value === 'function') return `[function ${value.name || 'anonymous'}]`;
  if (typeof value !== 'object' || value === null) return String(value);
  // Nodes of another frame are no `instanceof Node` here.
  if (typeof (value as Node).nodeType === 'number' && typeof (value as Node).nodeName === 'string') {
    const element = value as Element;
    if (typeof element.outerHTML !== 'string') return `[${element.nodeName}]`;
    const open = element.outerHTML.slice(0, element.outerHTML.indexOf('>') + 1) || `<${element.localName}>`;
    return open.length > 200 ? `${open.slice(0, 199)}…` : open;
  }
  return `[${Object.prototype.toString.call(value).slice(8, -1)}]`;
}

/** `value[key]`, or a note when reading it throws (a getter, a revoked proxy). */
function read(value: object, key: string): unknown {
  try {
    return (value as Record<string, unknown>)[key];
  } catch (error) {
    return `[unreadable: ${String(error)}]`;
  }
}

/** A copy of `value` in which every part structuredClone refuses is replaced by its description. */
function transportable(value: unknown, seen = new Map<object, unknown>(), depth = 0): unknown {
  if (typeof value !== 'object' || value === null) {
    return typeof value === 'function' || typeof value === 'symbol' ? describe(value) : value;
  }
  if (seen.has(value)) return seen.get(value);
  // An Error would clone whole, but as JSON it is `{}`: its fields are copied below instead.
  if (!(value instanceof Error)) {
    try {
      const copy = clone(value);
      seen.set(value, copy);
      return copy;
    } catch {
      // refused as a whole: copied part by part below
    }
  }
  if (depth >= MAX_DEPTH || typeof (value as Node).nodeType === 'number' || value === globalThis) return describe(value);
  if (value instanceof Map || value instanceof Set) {
    const entries: unknown[] = [];
    seen.set(value, entries);
    for (const entry of value instanceof Map ? value.entries() : value.values()) entries.push(transportable(entry, seen, depth + 1));
    return entries;
  }
  const copy: Record<string, unknown> = Array.isArray(value) ? ([] as unknown as Record<string, unknown>) : {};
  seen.set(value, copy);
  const keys = Object.keys(value);
  if (value instanceof Error) keys.unshift(...['name', 'message', 'stack', 'cause'].filter((key) => key in value));
  for (const key of keys) copy[key] = transportable(read(value, key), seen, depth + 1);
  return copy;
}

globalThis.structuredClone = function structuredClone(value: unknown, options?: StructuredSerializeOptions) {
  try {
    return clone(value, options);
  } catch (error) {
    // Only the runner's messages (its web socket module) fall back; the code under test sees the error.
    const fromRunner = new Error().stack?.includes('__web-dev-server__web-socket');
    if (!fromRunner || !(error instanceof DOMException && error.name === 'DataCloneError')) throw error;
    try {
      return clone(transportable(value), options);
    } catch (still) {
      // Never leave the file hanging: what cannot be sent becomes a failure that says so.
      const message = value as { type?: unknown; sessionId?: unknown; testFile?: unknown };
      return clone({
        type: message.type,
        sessionId: message.sessionId,
        testFile: message.testFile,
        result: { passed: false, errors: [{ message: `The test results could not be sent: ${String(still)}` }] },
      });
    }
  }
} as typeof globalThis.structuredClone;
