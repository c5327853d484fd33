// The one seam between an element and a part of it loaded with `import()` (the uploader's rows, the
// editor's editing view and creation form, the channel panel): the module is downloaded once per
// page, its exported `styles` join the element's in its shadow root, the element's template asks
// the seam for pending / complete / error (a @lit/task), and the part reaches its element only
// through one typed port.
import { adoptStyles, type CSSResultOrNative, type LitElement } from 'lit';
import { Task, TaskStatus, initialState, type StatusRenderer } from '@lit/task';
import { networkError, type SvcError } from '../../core/errors.js';
import type { RelayClient } from '../../core/relay-client.js';
import type { Chunk } from './chunk.js';

// The one chunk loader, in a module of its own that imports nothing: the player's first paint takes
// it without this seam (and @lit/task) whatever the bundler's tree shaking.
export { lazyChunk, type Chunk } from './chunk.js';

/** What an element hands every part it loads: the same few things, the same way, in every element. */
export interface ElementPort<S> {
  /** The relay client (the element's `client()`, so tests that override it reach the parts too). */
  client(): RelayClient;
  /** The element's strings in the viewer's language, with the page's overrides (the same object while they do not change). */
  readonly strings: S;
  /** The language tag for `Intl` formatters. */
  readonly locale: string;
  /** What the viewer reads for a failure (an error or a stable code), in their language. */
  errorText(error: unknown): string;
  /** Says `text` in the element's polite live region. */
  announce(text: string): void;
  /** After the next render, focuses the first of `selectors` found in the element. */
  focus(...selectors: string[]): void;
  /** Fires `name` from the element (bubbling and composed, as every event of the elements). */
  emit<T>(name: string, detail: T): void;
  /** Fires `svc-error` (not for a cancelled request) with `detail`'s own fields beside the code and message; returns the failure. */
  emitError(error: unknown, detail?: object): SvcError;
  /** Renders the element again (a part's own state changed). */
  requestUpdate(): void;
}

/** A module loaded as a part may export the styles its templates need. */
export interface PartModule {
  readonly styles?: CSSResultOrNative | readonly CSSResultOrNative[];
}


/** The styles each shadow root has taken from parts, after its element's own. */
const adopted = new WeakMap<ShadowRoot, CSSResultOrNative[]>();

/** Adds a part's `styles` to `host`'s shadow root once, after the element's own (the one way parts bring styles). */
export function adoptPartStyles(host: LitElement, { styles: own }: PartModule): void {
  const root = host.renderRoot;
  if (!own || !(root instanceof ShadowRoot)) return;
  const added = adopted.get(root) ?? [];
  const styles = ([] as CSSResultOrNative[]).concat(own as CSSResultOrNative[]);
  if (styles.every((style) => added.includes(style))) return;
  added.push(...styles.filter((style) => !added.includes(style)));
  adopted.set(root, added);
  adoptStyles(root, [...(host.constructor as typeof LitElement).elementStyles, ...added]);
}

export interface LazyPartOptions<M> {
  /** The part is wanted while this is true (checked on each update); without it, `load()` asks for it. */
  when?: () => boolean;
  /** A failed download, after it is shown: the element fires `svc-error`. */
  onError?: (error: SvcError) => void;
  /** The module arrived (before it renders). */
  onLoad?: (module: M) => void;
}

/**
 * One part of an element, loaded with `import()` when needed, as a reactive controller: `render()`
 * gives pending / complete / error like a @lit/task's, with the module once it is there.
 */
export class LazyPart<M extends object> {
  readonly #task: Task<readonly [boolean], M>;
  readonly #host: LitElement;
  readonly #chunk: Chunk<M>;
  readonly #options: LazyPartOptions<M>;
  #taken?: M;

  constructor(host: LitElement, chunk: Chunk<M>, options: LazyPartOptions<M> = {}) {
    this.#host = host;
    this.#chunk = chunk;
    this.#options = options;
    const { when, onError } = options;
    this.#task = new Task(host, {
      task: ([wanted]) => (wanted ? this.#load() : Promise.resolve(initialState)),
      args: () => [when ? when() : false] as const,
      autoRun: when !== undefined,
      onError: (error) => onError?.(error as SvcError),
    });
  }

  /** The module while it is wanted, once this page has it (its styles then join the element's, at once). */
  get value(): M | undefined {
    const module = !this.#options.when || this.#options.when() ? this.#chunk.value : undefined;
    return module && this.#take(module);
  }

  get status(): TaskStatus {
    return this.#task.status;
  }

  /** Settles once the load under way (if any) has. */
  get taskComplete(): Promise<M> {
    return this.#task.taskComplete;
  }

  /** Loads the part (again after a failure); resolves with the module. */
  async load(): Promise<M> {
    if (this.value) return this.value;
    await this.#task.run([true]);
    if (this.#task.status !== TaskStatus.COMPLETE) throw this.#task.error;
    return this.#task.value!;
  }

  /** Renders by the load's status, as `Task.render`; complete at once when the page has the module already. */
  render<T extends StatusRenderer<M>>(renderers: T) {
    const module = this.value;
    return module && renderers.complete ? (renderers.complete(module) as ReturnType<NonNullable<T['complete']>>) : this.#task.render(renderers);
  }

  async #load(): Promise<M> {
    let module: M;
    try {
      module = await this.#chunk();
    } catch (error) {
      throw networkError(error); // only the download can have failed
    }
    return this.#take(module);
  }

  /** The first time this element sees the module: its styles join the element's, then `onLoad`. */
  #take(module: M): M {
    if (this.#taken === module) return module;
    this.#taken = module;
    adoptPartStyles(this.#host, module);
    this.#options.onLoad?.(module);
    return module;
  }
}
