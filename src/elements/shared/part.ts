// The one seam between an element and a part of it loaded with `import()` (the uploader's rows, the
// editor's editing view and creation form, the channel panel): the module is downloaded once per
// page, its exported `styles` join the element's in its shadow root, the element's template asks
// the seam for pending / complete / error (a @lit/task), and the part reaches its element only
// through one typed port.
import type { LitElement } from 'lit';
import { Task, TaskStatus, initialState, type StatusRenderer } from '@lit/task';
import { networkError, type SvcError } from '../../core/errors.js';
import type { Chunk } from './chunk.js';
import { adoptPartStyles } from './part-styles.js';

// The seam's other pieces, each in a module of its own so that the player can take them without
// this controller (and @lit/task): the chunk loader in its first paint, the rest with its lazy chunks.
export { lazyChunk, type Chunk } from './chunk.js';
export { adoptPartStyles, type PartModule } from './part-styles.js';
export { elementPort, type ElementPort } from './port.js';

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
