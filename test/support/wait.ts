// Every wait in the Node tests has a deadline and fails with what it was waiting for: a test that
// stalls then fails by name instead of hanging the run (scripts/test-node.ts adds a per-test timeout
// behind these).

/** Polls `check` until it returns a value other than undefined/false; fails after `limitMs`. */
export async function waitFor<T>(check: () => T | undefined | false | Promise<T | undefined | false>, what: string, limitMs = 20_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`gave up after ${limitMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** `promise`, or a failure naming `what` when it has not settled within `limitMs`. */
export async function withDeadline<T>(promise: Promise<T>, what: string, limitMs = 20_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`gave up after ${limitMs} ms waiting for ${what}`)), limitMs);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
