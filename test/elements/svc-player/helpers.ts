// Browser-side helpers shared by the <svc-player> browser tests.
import '../../../src/elements/svc-player/define.js';
import type { RelayClient } from '../../../src/core/relay-client.js';
import type { SvcPlayer, SvcPlayerReadyDetail } from '../../../src/elements/svc-player/svc-player.js';
import type { SvcErrorDetail } from '../../../src/elements/shared/events.js';

/**
 * The class that defines `<svc-player>` on this page: the source's on the bundler path, the build's
 * on the script-tag path (where importing svc-player.ts would give another class, defining nothing).
 */
export const Player = customElements.get('svc-player') as typeof SvcPlayer;

export interface Mounted {
  el: SvcPlayer;
  /** Resolves with the first `svc-player-ready` detail; rejects on `svc-error`. */
  ready: Promise<SvcPlayerReadyDetail>;
  /** Resolves with the first `svc-error` detail; rejects on `svc-player-ready`. */
  error: Promise<SvcErrorDetail>;
}

/**
 * Creates an `<svc-player>` with `attributes` (and `properties`), listening for its events before it
 * is connected, so that no event can be missed; appends it to `parent` (default: document.body).
 */
export function mount(
  attributes: Record<string, string>,
  options: { properties?: Record<string, unknown>; parent?: Element } = {},
): Mounted {
  const el = document.createElement('svc-player');
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  Object.assign(el, options.properties ?? {});
  const ready = new Promise<SvcPlayerReadyDetail>((resolve, reject) => {
    el.addEventListener('svc-player-ready', (event) => resolve(event.detail), { once: true });
    el.addEventListener('svc-error', (event) => reject(new Error(`svc-error ${JSON.stringify(event.detail)}`)), {
      once: true,
    });
  });
  const error = new Promise<SvcErrorDetail>((resolve, reject) => {
    el.addEventListener('svc-error', (event) => resolve(event.detail), { once: true });
    el.addEventListener('svc-player-ready', () => reject(new Error('svc-player-ready instead of svc-error')), {
      once: true,
    });
  });
  // Whichever is not awaited must not surface as an unhandled rejection.
  ready.catch(() => {});
  error.catch(() => {});
  (options.parent ?? document.body).append(el);
  return { el, ready, error };
}

/** A JSON request to the relay through the test server's `/svc` proxy. */
export async function relay<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`/svc${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', 'X-Svc-Request': '1' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** URLs of every resource the page requested so far (fetch, script, iframe, media...). */
export function requestedUrls(): string[] {
  return performance.getEntriesByType('resource').map((entry) => entry.name);
}

/**
 * Wraps the element's one network seam, `client()` (an instance property, as every element's tests
 * do): `patch` gets each client it hands out, before the element uses it.
 */
export function wrapClient(el: SvcPlayer, patch: (client: RelayClient) => void): void {
  const seam = el as unknown as { client(): RelayClient };
  const original = seam.client;
  seam.client = function (this: SvcPlayer) {
    const client = original.call(this);
    patch(client);
    return client;
  };
}

/**
 * Holds every embed request of the element after the first `pass` until `release()`, then sends it
 * whether or not it was aborted, as a network that cannot cancel would: its answer arrives late
 * (`late`). `asked` lists the ids asked for.
 */
export function holdEmbeds(el: SvcPlayer, pass = 0) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const hold = { asked: [] as string[], late: undefined as ReturnType<RelayClient['embed']> | undefined, release };
  const patched = new WeakSet<RelayClient>();
  wrapClient(el, (client) => {
    if (patched.has(client)) return;
    patched.add(client);
    const embed = client.embed.bind(client);
    client.embed = async (kind, id, variant) => {
      hold.asked.push(id);
      if (hold.asked.length <= pass) return embed(kind, id, variant);
      await held;
      return (hold.late = embed(kind, id, variant));
    };
  });
  return hold;
}

/** Records `[kind, id, variant]` of every embed code the element asks its client for. */
export function recordEmbeds(el: SvcPlayer): string[][] {
  const calls: string[][] = [];
  wrapClient(el, (client) => {
    const embed = client.embed.bind(client);
    client.embed = (kind, id, variant, signal) => {
      calls.push([kind, id, variant]);
      return embed(kind, id, variant, signal);
    };
  });
  return calls;
}
