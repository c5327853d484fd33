// Browser-side helpers for web-test-runner tests (see wtr-stack.ts for the server side).

export interface TestEnv {
  relay_url: string;
  control_url: string;
  base_url: string;
  upload_url: string;
  player_url: string;
  account_id: string;
}

export async function testEnv(): Promise<TestEnv> {
  return (await fetch('/__env')).json();
}

/** Uploads a real ffmpeg-made video through the relay and waits until it is ready. */
export async function seedVod(): Promise<{ upload_id: string; vod_id: string; title: string }> {
  const response = await fetch('/__seed/vod', { method: 'POST' });
  if (!response.ok) throw new Error(`seed failed: ${await response.text()}`);
  return response.json();
}

/** A real video file as a `File`, e.g. `await videoFile('clip-3s.mp4')`. */
export async function videoFile(name = 'sample-2s.mp4'): Promise<File> {
  const blob = await (await fetch(`/__fixtures/${name}`)).blob();
  return new File([blob], name, { type: blob.type });
}

/** Calls the local service's control API (faults, state, reset). */
export async function control<T = unknown>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(`/__control${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`control ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** Calls the relay's API as the page's user (dev identity) and answers its JSON; throws on an error status. */
export async function relay<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`/svc${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', 'X-Svc-Request': '1' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/**
 * Lets elements use a relay on `url`'s origin, as a site owner does: adds the origin to
 * `<meta name="svc-relay-origins">` in the head (created when missing). Without it, a `relay`
 * attribute on another origin than the page's relay is refused (`origin_not_trusted`).
 */
export function trustRelayOrigin(url: string): void {
  const head = document.querySelector('head')!; // not document.head: a test may clobber it
  let meta = head.querySelector<HTMLMetaElement>('meta[name="svc-relay-origins"]');
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = 'svc-relay-origins';
    head.append(meta);
  }
  meta.content = `${meta.content} ${new URL(url).origin}`.trim();
}

/**
 * Lists one relay (`url`, with its path) in `<meta name="svc-relay-origins">` in the head, as a site
 * owner does for a relay beside the page's own on the same origin.
 */
export function trustRelay(url: string): void {
  const head = document.querySelector('head')!;
  let meta = head.querySelector<HTMLMetaElement>('meta[name="svc-relay-origins"]');
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = 'svc-relay-origins';
    head.append(meta);
  }
  meta.content = `${meta.content} ${new URL(url, location.href).href}`.trim();
}

/**
 * Fills a `<svc-channel-setup>`'s form through its controls, as a user would (title, description,
 * the Europe region, one rendition), once its regions are shown; the caller submits it.
 */
export async function fillChannelForm(el: HTMLElement & { updateComplete: Promise<unknown> }, title: string, description: string): Promise<void> {
  const root = el.shadowRoot!;
  const deadline = Date.now() + 25_000;
  while (root.querySelectorAll('input[type="radio"]').length !== 3) {
    if (Date.now() > deadline) throw new Error('the channel form never showed its regions');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const type = (selector: string, value: string) => {
    const input = root.querySelector<HTMLInputElement>(selector)!;
    input.value = value;
    input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
  };
  type('#title', title);
  type('#description', description);
  root.querySelector<HTMLInputElement>('input[type="radio"][value="europe"]')!.click();
  type('#renditions', '1');
  await el.updateComplete;
}
