// A fetch to the relay that got no answer, explained: down, or refusing this page's origin.
import { SvcError, networkError } from './errors.js';

/**
 * Why a request to the relay got no answer. A failed `fetch` looks the same whether the relay is
 * down or refused this page's origin (CORS), so a second request in `no-cors` mode tells them
 * apart: an (opaque) answer means the relay is there but did not allow the page's origin.
 * `probeUrl` must be a GET route of the relay; it is only probed from a page on another origin.
 */
export async function explainFetchFailure(probeUrl: string, error: unknown, doFetch: typeof fetch = fetch): Promise<SvcError> {
  const failure = networkError(error);
  if (failure.code !== 'network_error') return failure;
  const page = (globalThis as { location?: { href: string; origin: string } }).location;
  let relay: URL;
  try {
    relay = new URL(probeUrl, page?.href);
  } catch {
    return failure;
  }
  if (page && relay.origin !== page.origin) {
    const reachable = await doFetch(relay.href, { mode: 'no-cors', credentials: 'omit', cache: 'no-store' }).then(
      () => true,
      () => false,
    );
    if (reachable) {
      return new SvcError(
        'origin_not_allowed',
        `This page's origin (${page.origin}) is not allowed by the relay at ${relay.origin}: add it to the relay's SVC_ALLOWED_ORIGINS.`,
      );
    }
  }
  return new SvcError(
    'relay_unreachable',
    `The relay at ${relay.origin} cannot be reached. Check that it is running, that the relay attribute (or <meta name="svc-relay">) points at it, and the connection.`,
  );
}
