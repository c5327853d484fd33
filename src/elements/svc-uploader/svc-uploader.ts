import { html, nothing, type PropertyValues, type TemplateResult, type PropertyDeclarations } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { Task, TaskStatus } from '@lit/task';
import { UploadRows, type UploadRow } from '../../core/upload-rows.js';
import type { PostFormOptions, PostFormResult } from '../../core/upload-form.js';
import type { UploadQueue } from '../../core/upload-queue.js';
import { trustedRelayUrl } from '../shared/client.js';
import { emit } from '../shared/events.js';
import { focusAfterUpdate } from '../shared/focus.js';
import { LazyPart, lazyChunk } from '../shared/part.js';
import { Localized } from '../shared/strings.js';
import { baseStyles, formStyles } from '../shared/styles.js';
import { SvcElement } from '../shared/svc-element.js';
import type * as Events from './events.js';
import type { SvcUploaderState } from './events.js';
import { FileIntake } from './file-intake.js';
import { firstStrings } from './first-strings.js';
import { describeAccept, formatBytes } from './format.js';
import { hintText } from './messages.js';
import { pendingStorage } from './pending-uploads.js';
import type { SvcUploaderStrings } from './strings.js';
import { styles } from './svc-uploader.styles.js';

/** The live region speaks of progress at most this often (failures at once). */
const SUMMARY_MS = 3000;

/** What the uploader needs only once files come (the queue, the transfer, the rows), loaded once per page. */
const queueChunk = lazyChunk(() => import('./lazy.js'));
type QueuePart = typeof import('./lazy.js');

export type * from './events.js';
export type { SvcUploaderStrings } from './strings.js';

/**
 * Uploads video files straight from the browser to the service's upload address with a signature
 * from the relay (no file byte passes the relay), then follows each upload through processing to
 * "ready to play" with the relay's events.
 *
 * @tagname svc-uploader
 * @summary A drop zone and file button that uploads videos and shows each one through to ready.
 *
 * @attr relay - Base URL of the relay API; default from `<meta name="svc-relay">` (in the head), else `/svc`; any other relay (another path on that origin, or another origin) is refused (`origin_not_trusted`, no token asked) unless the head lists it (its URL, or its origin) in `<meta name="svc-relay-origins">`.
 * @attr accept - Accepted types, as for `<input type=file>`; default `video/*`.
 * @attr multiple - Lets the chooser, a drop and a paste take several files at once.
 * @attr capture - `user` or `environment`: on phones, the chooser offers to record with that camera (passed to the file input).
 * @attr max-size - Largest file in bytes; default the relay's `max_upload_bytes` (`GET /svc/config`).
 * @attr concurrency - How many files are signed and uploaded at the same time; default 2.
 * @attr still-processing-after - Milliseconds of processing after which the row says "still processing"; default 60000.
 * @attr state - Reflected, read-only: `idle`, `uploading` (something queued or transferring), `processing`, `error` (a row failed) or `done`.
 * @attr dragover - Reflected, read-only: present while files are dragged over the drop zone.
 *
 * @event svc-upload-select - Cancelable, once per chosen, dropped or pasted file before anything is checked or sent; `detail` is `{file}`. `preventDefault()` skips the file.
 * @event svc-upload-start - A file got its signature and its transfer starts; `detail` is `{uploadId, name, size}`.
 * @event svc-upload-progress - More bytes of a file reached the upload address; `detail` is `{uploadId, name, loaded, total}` (monotonic, `loaded === total` only once the upload address accepted it).
 * @event svc-upload-uploaded - The upload address accepted the file; `detail` is `{uploadId, name, size}`.
 * @event svc-upload-ready - The video is processed and can be played; `detail` is `{uploadId, vodId, title, name}`.
 * @event svc-upload-cancel - The user cancelled a queued or running upload; `detail` is `{uploadId?, name}`.
 * @event svc-error - A file was rejected (`file_rejected`) or an upload failed; `detail` is `{code, message, name?, uploadId?}`.
 *
 * @slot - Replaces the drop zone's text.
 *
 * @csspart dropzone - The drop zone, a button that opens the file chooser.
 * @csspart hint - The line under the drop zone naming accepted types and the size limit.
 * @csspart list - The list of uploads.
 * @csspart item - Each row; it also has the part `item-<state>` (e.g. `item-failed`).
 * @csspart name - The file name of a row.
 * @csspart size - The file size of a row.
 * @csspart progress - The `<progress>` bar of a row.
 * @csspart details - Bytes sent, speed and time left.
 * @csspart state - The state text of a row.
 * @csspart error - The reason a row failed.
 * @csspart vod - The video id and title of a ready row.
 * @csspart actions - The buttons of a row.
 * @csspart button - Every row button; also `cancel-button`, `retry-button`, `remove-button`.
 * @csspart status - The polite live region (visually hidden).
 * @csspart summary - The line above the list: how many are ready of all, how many failed, and whether the queue waits.
 * @csspart count - The counts in the summary line.
 * @csspart waiting - The note that the queue waits because the relay or the upload address asked it to slow down.
 * @csspart retry-failed-button - "Retry failed": starts every failed upload that can be sent again (also part `button`).
 * @csspart clear-finished-button - "Clear finished": removes every ready or cancelled row (also part `button`).
 * @csspart folded - The line standing for the ready rows not listed in a long list, with its show/hide button (part `fold-button`).
 *
 * @cssproperty --svc-uploader-gap - Space between the parts (default 0.75rem).
 * @cssproperty --svc-uploader-dropzone-background - Background of the drop zone.
 * @cssproperty --svc-uploader-dropzone-active-background - Background while files are dragged over it.
 * @cssproperty --svc-uploader-dropzone-border - Border of the drop zone (default `2px dashed`).
 * @cssproperty --svc-uploader-dropzone-min-height - Minimum height of the drop zone (default 8rem).
 * @cssproperty --svc-uploader-border-color - Border colour of the drop zone and rows.
 * @cssproperty --svc-uploader-muted-color - Colour of hints and details.
 * @cssproperty --svc-uploader-accent-color - Colour of the progress bar and the active drop zone.
 * @cssproperty --svc-uploader-error-color - Colour of failures.
 * @cssproperty --svc-uploader-success-color - Colour of ready rows.
 * @cssproperty --svc-uploader-row-background - Background of each row.
 */
export class SvcUploader extends SvcElement<SvcUploaderStrings> {
  static override styles = [baseStyles, formStyles, styles];
  protected static override readonly tag = 'svc-uploader';

  // Lit's static properties, as the player's: lit/decorators.js stays out of what a page downloads
  // first (bench: all four elements, with esbuild and Vite).
  static override properties: PropertyDeclarations = {
    accept: {},
    multiple: { type: Boolean },
    capture: {},
    maxSize: { attribute: 'max-size', type: Number },
    concurrency: { type: Number },
    stillProcessingAfter: { attribute: 'still-processing-after', type: Number },
    networkRetries: { attribute: false },
    retryDelay: { attribute: false },
    announcement: { state: true },
    showReady: { state: true },
  };

  /** Accepted types (`video/*`, `video/mp4`, `.mkv`, comma-separated). */
  accept = 'video/*';

  /** Several files per choice or drop. */
  multiple = false;

  /** `user` or `environment`: phones offer to record a video with that camera. */
  capture?: 'user' | 'environment';

  /** Largest file in bytes; undefined means the relay's `max_upload_bytes`. */
  maxSize?: number;

  /** Files signed and uploaded at the same time (at least 1). */
  concurrency = 2;

  /** Milliseconds of processing before the row says "still processing". */
  stillProcessingAfter = 60_000;

  /** Automatic retries of a request or transfer that failed for a transient reason (lost connection, 408, 5xx), before the row fails. */
  networkRetries = 3;

  /** First wait before such a retry, in milliseconds; it doubles each time (with jitter). */
  retryDelay = 1000;

  private announcement = '';
  /** In a long list, ready rows are listed too (the fold button). */
  private showReady = false;

  // The queue part's strings join the defaults when it arrives (before anything shows them).
  protected readonly l10n = new Localized<SvcUploaderStrings>(this, 'svc-uploader', firstStrings as SvcUploaderStrings);
  readonly #intake = new FileIntake(this);
  /** Every row, from the first file on: the queue runs them once its part is there. */
  readonly #list = new UploadRows();
  /** The queue, the transfer and the list's view, loaded when the first file comes (or uploads wait to be shown again). */
  readonly #queuePart = new LazyPart(this, queueChunk, {
    onLoad: (part) => this.l10n.extend(part.strings),
    onError: (error) => {
      this.emitError(error);
      this.announce(this.port.errorText(error));
    },
  });
  #unsubscribe?: () => void;
  /** The relay's `max_upload_bytes`, asked only when a file needs it. */
  readonly #config = new Task(this, {
    task: async (_: readonly [], { signal }) => (await this.client().config(signal)).max_upload_bytes,
    autoRun: false,
  });
  #queue?: UploadQueue;
  #nextId = 1;
  #restoreChecked = false;
  #focusedRow?: string;
  #spokeAt = -Infinity;
  #summaryTimer?: ReturnType<typeof setTimeout>;
  #waitingUntil?: number;

  get #rows(): readonly UploadRow[] {
    return this.#list.rows;
  }

  /** A snapshot of every row, oldest first. */
  get items(): Events.SvcUploadItem[] {
    return this.#rows.map(({ id, name, size, state, uploadId, loaded, error, vod, stillProcessing, restored }) => {
      return { id, name, size, state, uploadId, loaded, error, vod, stillProcessing, restored };
    });
  }

  /** The overall state; reflected as the `state` attribute. */
  override get state(): SvcUploaderState {
    const states = new Set(this.#rows.map((row) => row.state));
    if (this.#rows.length && this.#queuePart.status === TaskStatus.ERROR) return 'error'; // its code could not be downloaded
    if (states.has('queued') || states.has('signing') || states.has('uploading')) return 'uploading';
    if (states.has('processing')) return 'processing';
    if (states.has('failed')) return 'error';
    if (states.has('ready')) return 'done';
    return 'idle';
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#summaryTimer);
    this.#summaryTimer = undefined;
    this.#unsubscribe?.();
    this.#queue?.detach(); // transfers go on; processing uploads are followed again once back
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#unsubscribe = this.#list.subscribe(() => this.requestUpdate());
    this.#queue?.attach();
    this.requestUpdate();
    if (!this.#restoreChecked) {
      this.#restoreChecked = true;
      if (pendingStorage(this.#scope).list().length) void this.#ensureQueue().then((queue) => queue?.restore());
    }
  }

  /** Posts the signed form to the upload address; override to change the transport. */
  protected async postForm(options: PostFormOptions): Promise<PostFormResult> {
    return (await this.#queuePart.load()).postForm(options);
  }

  /** Opens the browser's file chooser (the drop zone does this on click, Enter and Space). */
  openFileChooser(): void {
    this.renderRoot.querySelector<HTMLInputElement>('input[type=file]')?.click();
  }

  /** Adds files as if chosen: each is announced by `svc-upload-select`, checked, then queued. */
  async addFiles(files: Iterable<File>): Promise<void> {
    const chosen = [...files];
    let added = false;
    for (const file of this.multiple ? chosen : chosen.slice(0, 1)) {
      if (!emit<Events.SvcUploadSelectDetail>(this, 'svc-upload-select', { file }, { cancelable: true })) continue;
      this.#list.insert({ id: `upload-${this.#nextId++}`, name: file.name, size: file.size, file, state: 'queued' });
      added = true;
    }
    // Rows are checked and started at once when the page has the queue's part, else once it arrives.
    const part = this.#queuePart.value;
    if (part) this.#start(part).admit();
    else if (added) await this.#ensureQueue();
    await this.updateComplete;
  }

  /** Cancels a queued or running upload (by row id). */
  cancelItem(id: string): void {
    this.#withQueue((queue) => queue.cancel(id));
  }

  /** Starts a failed or cancelled upload again (by row id). */
  retryItem(id: string): void {
    this.#withQueue((queue) => queue.retry(id));
  }

  /** Starts every failed upload that can be sent again (as each row's Retry does). */
  retryFailed(): void {
    this.#withQueue((queue) => queue.retryFailed());
  }

  /** Removes every ready or cancelled row. */
  clearFinished(): void {
    this.#withQueue((queue) => queue.clearFinished());
  }

  /** Removes a row that is not transferring (cancel it first); a processing upload goes on at the service. */
  removeItem(id: string): void {
    this.#withQueue((queue) => queue.remove(id));
  }

  /** Acts through the queue: now, or once its part is there (rows exist before it, never without it coming). */
  #withQueue(act: (queue: UploadQueue) => void): void {
    const part = this.#queuePart.value;
    const queue = this.#queue ?? (part && this.#start(part));
    if (queue) act(queue);
    else void this.#ensureQueue().then((loaded) => loaded && act(loaded));
  }

  /** What this uploader's pending uploads are kept under: the trusted relay it uses (none when refused). */
  get #scope(): string {
    return trustedRelayUrl(this) ?? '';
  }

  /** Loads the queue's part (again after a failed download, which its seam shows and reports); undefined when it failed. */
  async #ensureQueue(): Promise<UploadQueue | undefined> {
    try {
      return this.#start(await this.#queuePart.load());
    } catch {
      return undefined;
    }
  }

  #start({ startQueue }: QueuePart): UploadQueue {
    if (this.#queue) return this.#queue;
    const locale = () => this.l10n.locale;
    this.#queue = startQueue(this.port, {
      rows: this.#list,
      settings: () => this,
      post: (options) => this.postForm(options),
      storage: pendingStorage(this.#scope),
      limit: () => this.#limit(),
      acceptText: () => describeAccept(this.accept, this.l10n.strings.acceptAnyVideo, locale()),
      bytes: (value) => formatBytes(value, locale()),
      announce: (now) => this.announce(now),
      summaryMs: SUMMARY_MS,
    });
    if (!this.isConnected) this.#queue.detach(); // it follows processing uploads while the element is in the page
    return this.#queue;
  }

  /** The relay's limit, or undefined when it cannot be had (the relay and upload address still enforce theirs). */
  async #limit(): Promise<number | undefined> {
    if (this.#config.status === TaskStatus.INITIAL || this.#config.status === TaskStatus.ERROR) void this.#config.run();
    return this.#config.taskComplete.catch(() => undefined);
  }

  /**
   * The live region: a row's changes are summed up at most every SUMMARY_MS (a screen reader
   * hears "3 uploading, 12 ready" now and then, not each of hundreds of files); a failure, a
   * cancel and the queue starting to wait are said at once.
   */
  protected override announce(now?: string): void {
    const at = performance.now();
    if (now !== undefined) {
      this.announcement = now;
      this.#spokeAt = at;
    }
    if (this.#summaryTimer !== undefined) return; // a summary is due already
    const wait = this.#spokeAt + SUMMARY_MS - at;
    const speak = () => {
      this.#summaryTimer = undefined;
      this.#spokeAt = performance.now();
      this.announcement = this.#queuePart.value?.spokenSummary(this.port, this.#rows) ?? '';
    };
    // Even when it may speak now, it waits for the task to end: a folder's files come in one go.
    if (this.isConnected) this.#summaryTimer = setTimeout(speak, Math.max(0, wait));
  }

  override willUpdate(): void {
    // A row's buttons change with its state; remember which row held focus to keep it there.
    this.#focusedRow = this.shadowRoot?.activeElement?.closest<HTMLElement>('li[data-id]')?.dataset.id;
    const waitingUntil = this.#queue?.waitingUntil;
    if (waitingUntil !== undefined && waitingUntil !== this.#waitingUntil) this.announce(this.l10n.strings.waiting);
    this.#waitingUntil = waitingUntil;
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    if (this.#focusedRow && !this.shadowRoot?.activeElement) {
      void focusAfterUpdate(this, `li[data-id="${this.#focusedRow}"] button`, '[part~=dropzone]');
    }
  }

  /** The list, once its part is there; while it loads, nothing (a moment); when it could not be downloaded, why, and a Retry. */
  #renderList(): unknown {
    const s = this.l10n.strings;
    return this.#queuePart.render({
      complete: (part) =>
        part.renderList(this.port, {
          rows: this.#rows,
          waiting: this.#queue?.waitingUntil !== undefined,
          showReady: this.showReady,
          toggleReady: () => (this.showReady = !this.showReady),
          actions: this,
          canRetry: (row) => !!this.#queue?.canRetry(row),
          networkRetries: this.networkRetries,
          bytes: (value) => formatBytes(value, this.l10n.locale),
        }),
      error: (error) => html`<p part="error" class="error" role="alert">${this.port.errorText(error)}</p><div class="actions"><button type="button"
        part="button retry-button" @click=${() => void this.#ensureQueue()}>${s.retry}</button></div>`,
    });
  }

  override render(): TemplateResult {
    const s = this.l10n.strings;
    const hint = hintText(s, this.accept, this.maxSize ?? this.#config.value, this.l10n.locale);
    // Written compactly (template literals are not minified): the element's first paint.
    return html`<div dir=${this.l10n.dir}><button type="button" part="dropzone" class="dropzone" aria-describedby="hint" @click=${this.openFileChooser}
      @dragenter=${this.#intake.dragover} @dragover=${this.#intake.dragover} @dragleave=${this.#intake.dragleave} @drop=${this.#intake.drop}><slot>${
      this.#intake.dragging ? s.dropzoneActive : this.multiple ? s.dropzone : s.dropzoneSingle}</slot></button><p id="hint" part="hint" class="hint">${hint}</p><input
      type="file" hidden accept=${this.accept} capture=${ifDefined(this.capture === 'user' || this.capture === 'environment' ? this.capture : undefined)}
      ?multiple=${this.multiple} @change=${this.#intake.change} />${this.#rows.length ? this.#renderList() : nothing}<div
      part="status" class="visually-hidden" role="status" aria-live="polite">${this.announcement}</div></div>`;
  }
}
