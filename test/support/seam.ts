// The one way element tests reach an element's network seam: its protected `client()` (and the
// uploader's `postForm()`), replaced on the instance by a function that may call the element's own.
import type { RelayClient } from '../../src/core/relay-client.js';
import type { PostFormOptions, PostFormResult } from '../../src/core/upload-form.js';

interface Seams {
  client(): RelayClient;
  postForm(options: PostFormOptions): Promise<PostFormResult>;
}

/** Replaces `el`'s `name` with `replace(own)`, where `own` is the element's own method, bound to it. */
export function overrideSeam<K extends keyof Seams>(el: HTMLElement, name: K, replace: (own: Seams[K]) => Seams[K]): void {
  const seams = el as unknown as Seams;
  seams[name] = replace(seams[name].bind(el) as Seams[K]);
}

/** Wraps each client `el` makes: `change` replaces some of its methods. */
export function wrapClient(el: HTMLElement, change: (client: RelayClient) => void): void {
  overrideSeam(el, 'client', (own) => () => {
    const client = own();
    change(client);
    return client;
  });
}
