import { LitElement, html, nothing, type TemplateResult } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { ifDefined } from 'lit/directives/if-defined.js';
import { repeat } from 'lit/directives/repeat.js';
import { SvcError, toSvcError } from '../../core/errors.js';
import { RelayClient, relayBaseUrl, type UploadCreated, type UploadState } from '../../core/relay-client.js';
import { UploadWatcher, backoffDelay, delay } from '../../core/sse.js';
import { TransferRate, checkFile, postForm, type PostFormOptions, type PostFormResult } from '../../core/upload-form.js';
import { SIGNATURE_BYTES, videoContainer } from '../../core/video-signature.js';
import { emit, type SvcErrorDetail } from '../shared/events.js';
import { Localized, format, type StringsOverride } from '../shared/strings.js';
import { baseStyles } from '../shared/styles.js';
import { describeAccept, formatBytes, formatDuration } from './format.js';
import { addPendingUpload, pendingUploads, removePendingUpload } from './pending-uploads.js';
import { defaultStrings, type SvcUploaderStrings } from './strings.js';
import { styles } from './svc-uploader.styles.js';

export type SvcUploadItemState = 'queued' | 'signing' | 'uploading' | 'processing' | 'ready' | 'failed' | 'cancelled';

/** The element's overall state, reflected as its `state` attribute. */
export type SvcUploaderState = 'idle' | 'uploading' | 'processing' | 'error' | 'done';

/** One row as the page sees it (a snapshot; see `SvcUploader.items`). */
export interface SvcUploadItem {
  /** Local id of the row (stable while the row exists). */
  id: string;
  name: string;
  /** Bytes; unknown for a row restored after a reload. */
  size?: number;
  state: SvcUploadItemState;
  /** The relay's upload id, once signed. */
  uploadId?: string;
  /** File bytes the upload address has received, as far as can be told (never moves back). */
  loaded: number;
  error?: SvcErrorDetail;
  vod?: { id: string; title: string };
  stillProcessing: boolean;
  /** Shown again from the relay after a reload (no file to retry with). */
  restored: boolean;
}

export interface SvcUploadSelectDetail {
  file: File;
}
export interface SvcUploadStartDetail {
  uploadId: string;
  name: string;
  size: number;
}
export interface SvcUploadProgressDetail {
  uploadId: string;
  name: string;
  loaded: number;
  total: number;
}
export interface SvcUploadUploadedDetail {
  uploadId: string;
  name: string;
  size: number;
}
export interface SvcUploadReadyDetail {
  uploadId: string;
  vodId: string;
  title: string;
  name: string;
}
export interface SvcUploadCancelDetail {
  uploadId?: string;
  name: string;
}
export interface SvcUploadErrorDetail extends SvcErrorDetail {
  name?: string;
  uploadId?: string;
}

interface Item extends SvcUploadItem {
  file?: File;
  controller?: AbortController;
  rate: TransferRate;
  /** The upload address accepted the file (a retry then only tells the relay). */
  delivered: boolean;
  /** The whole body is sent; the answer is awaited. */
  sent: boolean;
  note?: { kind: 'renewing' } | { kind: 'retrying'; attempt: number };
  /** Failed validation: retrying cannot help. */
  rejected: boolean;
  /** The error's message is the element's own string (in the viewer's language), not a technical one. */
  ownMessage?: boolean;
  timer?: ReturnType<typeof setTimeout>;
}

const ACTIVE: readonly SvcUploadItemState[] = ['signing', 'uploading'];
const BUSY: readonly SvcUploadItemState[] = ['queued', 'signing', 'uploading'];

/**
 * Uploads video files straight from the browser to the service's upload address with a signature
 * from the relay (no file byte passes the relay), then follows each upload through processing to
 * "ready to play" with the relay's events.
 *
 * @tagname svc-uploader
 * @summary A drop zone and file button that uploads videos and shows each one through to ready.
 *
 * @attr relay - Base URL of the relay API; default from `<meta name="svc-relay">`, else `/svc`.
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
export class SvcUploader extends LitElement {
  static override styles = [baseStyles, styles];

  /** Registers the element under `tag` in `registry` (once). */
  static define(tag = 'svc-uploader', registry: CustomElementRegistry = customElements): typeof SvcUploader {
    if (!registry.get(tag)) registry.define(tag, this);
    return this;
  }

  static readonly defaultStrings = defaultStrings;

  /** Base URL of the relay API; default from `<meta name="svc-relay">`, else `/svc`. */
  @property() relay?: string;

  /** Accepted types (`video/*`, `video/mp4`, `.mkv`, comma-separated). */
  @property() accept = 'video/*';

  /** Several files per choice or drop. */
  @property({ type: Boolean }) multiple = false;

  /** `user` or `environment`: phones offer to record a video with that camera. */
  @property() capture?: 'user' | 'environment';

  /** Largest file in bytes; undefined means the relay's `max_upload_bytes`. */
  @property({ attribute: 'max-size', type: Number }) maxSize?: number;

  /** Files signed and uploaded at the same time (at least 1). */
  @property({ type: Number }) concurrency = 2;

  /** Milliseconds of processing before the row says "still processing". */
  @property({ attribute: 'still-processing-after', type: Number }) stillProcessingAfter = 60_000;

  /** Automatic retries of a transfer whose connection failed, before the row fails. */
  @property({ attribute: false }) networkRetries = 3;

  /** First wait before such a retry, in milliseconds; it doubles each time (with jitter). */
  @property({ attribute: false }) retryDelay = 1000;

  /** Replacement strings; any key left out keeps its default (see `SvcUploader.defaultStrings`). */
  @property({ attribute: false }) strings: StringsOverride<SvcUploaderStrings> = {};

  /** Returns a bearer token for the relay, when the host page authenticates by header. */
  @property({ attribute: false }) token?: () => string | undefined | Promise<string | undefined>;

  @state() private _items: Item[] = [];
  @state() private _dragging = false;
  @state() private _announcement = '';
  @state() private _configMaxSize?: number;

  @query('input[type=file]') private _input!: HTMLInputElement;

  readonly #l10n = new Localized(this, 'svc-uploader', defaultStrings);
  #nextId = 1;
  #watcher?: UploadWatcher;
  #config?: Promise<number | undefined>;
  #restored = false;
  #unloadGuard = false;
  #focusedRow?: string;
  readonly #onBeforeUnload = (event: BeforeUnloadEvent) => {
    event.preventDefault();
    event.returnValue = ''; // older browsers need a value to show the dialog
  };

  /** A snapshot of every row, oldest first. */
  get items(): SvcUploadItem[] {
    return this._items.map((item) => ({
      id: item.id,
      name: item.name,
      size: item.size,
      state: item.state,
      uploadId: item.uploadId,
      loaded: item.loaded,
      error: item.error,
      vod: item.vod,
      stillProcessing: item.stillProcessing,
      restored: item.restored,
    }));
  }

  /** The overall state; reflected as the `state` attribute. */
  get state(): SvcUploaderState {
    const states = new Set(this._items.map((item) => item.state));
    if (BUSY.some((s) => states.has(s))) return 'uploading';
    if (states.has('processing')) return 'processing';
    if (states.has('failed')) return 'error';
    if (states.has('ready')) return 'done';
    return 'idle';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Paste fires on the focused element; from the drop zone it reaches the host through the shadow root.
    this.addEventListener('paste', this.#onPaste);
    if (!this.#restored) {
      this.#restored = true;
      void this.#restore();
    } else {
      for (const item of this._items) if (item.state === 'processing' && item.uploadId) this.#watch(item);
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.removeEventListener('paste', this.#onPaste);
    this.#watcher?.close();
    this.#watcher = undefined;
    this.#setUnloadGuard(false);
  }

  /** The relay client; override to change how the element reaches the relay. */
  protected client(): RelayClient {
    return new RelayClient({ baseUrl: this.#relayBase, token: this.token });
  }

  /** Posts the signed form to the upload address; override to change the transport. */
  protected postForm(options: PostFormOptions): Promise<PostFormResult> {
    return postForm(options);
  }

  /** Opens the browser's file chooser (the drop zone does this on click, Enter and Space). */
  openFileChooser(): void {
    this._input?.click();
  }

  /** Adds files as if chosen: each is announced by `svc-upload-select`, checked, then queued. */
  async addFiles(files: Iterable<File>): Promise<void> {
    const chosen = [...files];
    for (const file of this.multiple ? chosen : chosen.slice(0, 1)) {
      if (!emit<SvcUploadSelectDetail>(this, 'svc-upload-select', { file }, { cancelable: true })) continue;
      const item: Item = {
        id: `upload-${this.#nextId++}`,
        name: file.name,
        size: file.size,
        state: 'queued',
        loaded: 0,
        stillProcessing: false,
        restored: false,
        file,
        rate: new TransferRate(),
        delivered: false,
        sent: false,
        rejected: false,
      };
      this._items = [...this._items, item];
      const rejection = checkFile(file, { accept: this.accept, maxSize: this.maxSize });
      if (rejection) this.#reject(item, rejection);
      else this.#announce(this.#s.announceQueued, item);
    }
    this.#pump();
    await this.updateComplete;
  }

  /** Cancels a queued or running upload (by row id). */
  cancelItem(id: string): void {
    const item = this.#item(id);
    if (!item || !BUSY.includes(item.state)) return;
    item.controller?.abort();
    this.#setState(item, 'cancelled');
    item.note = undefined;
    emit<SvcUploadCancelDetail>(this, 'svc-upload-cancel', { uploadId: item.uploadId, name: item.name });
    this.#announce(this.#s.announceCancelled, item);
    this.#pump();
  }

  /** Starts a failed or cancelled upload again (by row id). */
  retryItem(id: string): void {
    const item = this.#item(id);
    if (!item || !this.#canRetry(item)) return;
    item.error = undefined;
    item.note = undefined;
    if (!item.delivered) item.loaded = 0;
    this.#setState(item, 'queued');
    this.#announce(this.#s.announceQueued, item);
    this.#pump();
  }

  /** Removes a row that is not transferring (cancel it first); a processing upload goes on at the service. */
  removeItem(id: string): void {
    const item = this.#item(id);
    if (!item || ACTIVE.includes(item.state)) return;
    clearTimeout(item.timer);
    if (item.uploadId) {
      this.#watcher?.unwatch(item.uploadId);
      removePendingUpload(this.#relayBase, item.uploadId);
    }
    this._items = this._items.filter((other) => other !== item);
  }

  get #s(): SvcUploaderStrings {
    return this.#l10n.strings;
  }

  get #relayBase(): string {
    return relayBaseUrl(this.relay, document);
  }

  #item(id: string): Item | undefined {
    return this._items.find((item) => item.id === id);
  }

  #canRetry(item: Item): boolean {
    return !item.rejected && !!item.file && (item.state === 'failed' || item.state === 'cancelled');
  }

  #setState(item: Item, next: SvcUploadItemState): void {
    item.state = next;
    this.requestUpdate();
  }

  #announce(template: string, item: Item, values: Record<string, string | number> = {}): void {
    this._announcement = format(template, { name: item.name, ...values });
  }

  #fail(item: Item, error: SvcError | SvcErrorDetail, ownMessage = false): void {
    clearTimeout(item.timer);
    item.ownMessage = ownMessage;
    item.note = undefined;
    item.error = { code: error.code, message: error.message };
    this.#setState(item, 'failed');
    this.#announce(this.#s.announceFailed, item, { message: this.#errorText(item) });
    emit<SvcUploadErrorDetail>(this, 'svc-error', { ...item.error, name: item.name, uploadId: item.uploadId });
  }

  #reject(item: Item, reason: 'empty' | 'type' | 'size' | 'content', maxSize = this.maxSize): void {
    const s = this.#s;
    const templates = { empty: s.rejectedEmpty, type: s.rejectedType, size: s.rejectedSize, content: s.rejectedContent };
    const template = templates[reason];
    const message = format(template, {
      name: item.name,
      accept: describeAccept(this.accept, s.acceptAnyVideo),
      size: formatBytes(item.size ?? 0, this.#l10n.locale),
      max: formatBytes(maxSize ?? 0, this.#l10n.locale),
    });
    item.rejected = true;
    this.#fail(item, new SvcError('file_rejected', message), true);
  }

  /** Starts queued uploads while fewer than `concurrency` are signing or uploading. */
  #pump(): void {
    const limit = Math.max(1, Math.floor(this.concurrency) || 1);
    let active = this._items.filter((item) => ACTIVE.includes(item.state)).length;
    for (const item of this._items) {
      if (active >= limit) break;
      if (item.state !== 'queued') continue;
      active++;
      void this.#run(item);
    }
  }

  async #run(item: Item): Promise<void> {
    const controller = new AbortController();
    item.controller = controller;
    const { signal } = controller;
    this.#setState(item, 'signing');
    try {
      if (!item.delivered) {
        // The file's first bytes must be a video container's, before anything is signed.
        const head = new Uint8Array(await item.file!.slice(0, SIGNATURE_BYTES).arrayBuffer());
        if (signal.aborted) return;
        if (!videoContainer(head)) return this.#reject(item, 'content');
        const maxSize = this.maxSize ?? (await this.#configMaxSize());
        if (signal.aborted) return;
        if (maxSize !== undefined && (item.size ?? 0) > maxSize) return this.#reject(item, 'size', maxSize);
        await this.#transfer(item, signal);
      }
      this.#setState(item, 'processing');
      item.note = undefined;
      this.#startStillProcessingTimer(item);
      this.#announce(this.#s.announceProcessing, item);
      const uploadId = item.uploadId!;
      const current = await this.client().markUploaded(uploadId, signal);
      addPendingUpload(this.#relayBase, uploadId);
      this.#apply(item, current);
      if (item.state === 'processing') this.#watch(item);
    } catch (error) {
      if (signal.aborted || item.state === 'cancelled') return;
      this.#fail(item, toSvcError(error));
    } finally {
      if (item.controller === controller) item.controller = undefined;
      this.#pump();
    }
  }

  /** Signs and posts the file; renews an expired signature once, retries lost connections. */
  async #transfer(item: Item, signal: AbortSignal): Promise<void> {
    const file = item.file!;
    const client = this.client();
    let created: UploadCreated | undefined;
    let renewed = false;
    let connectionFailures = 0;
    let started = false;
    item.rate = new TransferRate();
    item.sent = false;
    for (;;) {
      if (!created) {
        this.#setState(item, 'signing');
        created = await client.createUpload({ source: file.name, size: file.size, type: file.type || undefined }, signal);
        item.uploadId = created.upload_id;
      }
      this.#setState(item, 'uploading');
      if (!started) {
        started = true;
        emit<SvcUploadStartDetail>(this, 'svc-upload-start', { uploadId: created.upload_id, name: item.name, size: file.size });
        this.#announce(this.#s.announceUploading, item);
      }
      try {
        await this.postForm({
          url: created.upload_url,
          fields: created.fields,
          file,
          signal,
          onProgress: (loaded) => this.#progress(item, loaded),
          onSent: () => {
            item.sent = true;
            this.requestUpdate();
          },
        });
        item.delivered = true;
        item.note = undefined;
        emit<SvcUploadUploadedDetail>(this, 'svc-upload-uploaded', {
          uploadId: created.upload_id,
          name: item.name,
          size: file.size,
        });
        return;
      } catch (error) {
        const failure = toSvcError(error);
        item.sent = false;
        if (failure.code === 'signature_expired' && !renewed) {
          renewed = true;
          created = undefined;
          item.note = { kind: 'renewing' };
          continue;
        }
        if (failure.code === 'network_error' && connectionFailures < this.networkRetries) {
          connectionFailures++;
          item.note = { kind: 'retrying', attempt: connectionFailures };
          this.requestUpdate();
          await delay(backoffDelay(connectionFailures, this.retryDelay, 30_000), signal);
          if (signal.aborted) throw new SvcError('aborted', 'The upload was cancelled.');
          continue;
        }
        throw failure;
      }
    }
  }

  #progress(item: Item, loaded: number): void {
    // Across a renewed or retried attempt the row holds its value until the new attempt passes it.
    if (loaded <= item.loaded || item.state === 'cancelled') return;
    item.loaded = loaded;
    item.rate.add(loaded, performance.now());
    if (loaded > 0 && item.note) item.note = undefined;
    emit<SvcUploadProgressDetail>(this, 'svc-upload-progress', {
      uploadId: item.uploadId!,
      name: item.name,
      loaded,
      total: item.size ?? loaded,
    });
    this.requestUpdate();
  }

  #configMaxSize(): Promise<number | undefined> {
    this.#config ??= this.client()
      .config()
      .then((config) => (this._configMaxSize = config.max_upload_bytes))
      .catch(() => {
        // Without the relay's limit the relay and the upload address still enforce theirs.
        this.#config = undefined;
        return undefined;
      });
    return this.#config;
  }

  #startStillProcessingTimer(item: Item): void {
    clearTimeout(item.timer);
    item.stillProcessing = false;
    item.timer = setTimeout(() => {
      if (item.state !== 'processing') return;
      item.stillProcessing = true;
      this.#announce(this.#s.announceStillProcessing, item);
      this.requestUpdate();
    }, this.stillProcessingAfter);
  }

  #watch(item: Item): void {
    if (!this.isConnected) return; // connectedCallback watches again
    this.#watcher ??= new UploadWatcher({
      client: this.client(),
      onEvent: (event) => {
        const target = this._items.find((other) => other.uploadId === event.upload_id);
        if (target) this.#apply(target, event);
      },
      onError: (error, uploadId) => {
        const target = uploadId && this._items.find((other) => other.uploadId === uploadId);
        if (target && error.code === 'not_found' && target.state === 'processing') {
          removePendingUpload(this.#relayBase, uploadId);
          this.#fail(target, new SvcError('not_found', this.#s.unknownUpload, 404), true);
        }
      },
    });
    this.#watcher.watch(item.uploadId!);
  }

  /** A state from the relay (event, poll or answer) for a row that is processing. */
  #apply(item: Item, upload: UploadState): void {
    if (item.state !== 'processing') return;
    if (item.restored && upload.source) item.name = upload.source;
    if (upload.state === 'ready' && upload.vod) {
      clearTimeout(item.timer);
      item.vod = { id: upload.vod.id, title: upload.vod.title };
      item.stillProcessing = false;
      this.#setState(item, 'ready');
      this.#forget(item);
      this.#announce(this.#s.announceReady, item);
      emit<SvcUploadReadyDetail>(this, 'svc-upload-ready', {
        uploadId: upload.upload_id,
        vodId: upload.vod.id,
        title: upload.vod.title,
        name: item.name,
      });
    } else if (upload.state === 'failed') {
      this.#forget(item);
      item.delivered = false; // the service lost it: a retry sends the file again
      this.#fail(item, new SvcError('upload_failed', this.#s.processingFailed), true);
    } else {
      this.requestUpdate();
    }
  }

  #forget(item: Item): void {
    if (!item.uploadId) return;
    this.#watcher?.unwatch(item.uploadId);
    removePendingUpload(this.#relayBase, item.uploadId);
  }

  /** Shows again the uploads that were processing when the page was left (ids in sessionStorage). */
  async #restore(): Promise<void> {
    const ids = pendingUploads(this.#relayBase);
    if (!ids.length) return;
    const client = this.client();
    await Promise.all(
      ids.map(async (uploadId) => {
        if (this._items.some((item) => item.uploadId === uploadId)) return;
        let upload: UploadState;
        try {
          upload = await client.upload(uploadId);
        } catch (error) {
          const failure = toSvcError(error);
          // Unknown or not ours any more: nothing to show. Other failures keep the id for later.
          if (failure.code === 'not_found' || failure.code === 'forbidden') removePendingUpload(this.#relayBase, uploadId);
          return;
        }
        const item: Item = {
          id: `upload-${this.#nextId++}`,
          name: upload.source || format(this.#s.restoredName, { id: uploadId }),
          state: 'processing',
          uploadId,
          loaded: 0,
          stillProcessing: false,
          restored: true,
          rate: new TransferRate(),
          delivered: true,
          sent: true,
          rejected: false,
        };
        this._items = [...this._items, item];
        this.#startStillProcessingTimer(item);
        this.#apply(item, upload);
        if (item.state === 'processing') this.#watch(item);
      }),
    );
  }

  #setUnloadGuard(on: boolean): void {
    if (on === this.#unloadGuard) return;
    this.#unloadGuard = on;
    if (on) window.addEventListener('beforeunload', this.#onBeforeUnload);
    else window.removeEventListener('beforeunload', this.#onBeforeUnload);
  }

  override willUpdate(): void {
    // A row's buttons change with its state; remember which row held focus to keep it there.
    const focused = this.shadowRoot?.activeElement?.closest<HTMLElement>('li[data-id]');
    this.#focusedRow = focused?.dataset.id;
  }

  override updated(): void {
    if (this.#focusedRow && !this.shadowRoot?.activeElement) {
      const row = this.renderRoot.querySelector<HTMLElement>(`li[data-id="${this.#focusedRow}"]`);
      (row?.querySelector<HTMLElement>('button') ?? this.renderRoot.querySelector<HTMLElement>('[part~=dropzone]'))?.focus();
    }
    this.#focusedRow = undefined;
    const state = this.state;
    if (this.getAttribute('state') !== state) this.setAttribute('state', state);
    this.toggleAttribute('dragover', this._dragging);
    this.#setUnloadGuard(this.isConnected && state === 'uploading');
  }

  #onChange(event: Event): void {
    const input = event.target as HTMLInputElement;
    const files = [...(input.files ?? [])];
    input.value = ''; // so choosing the same file again fires change
    void this.addFiles(files);
  }

  /** Files pasted while the element (its drop zone) has focus are added like dropped ones. */
  readonly #onPaste = (event: ClipboardEvent): void => {
    const files = [...(event.clipboardData?.files ?? [])];
    if (!files.length) return;
    event.preventDefault();
    void this.addFiles(files);
  };

  #onDragOver(event: DragEvent): void {
    if (!event.dataTransfer?.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    this._dragging = true;
  }

  #onDragLeave(event: DragEvent): void {
    const to = event.relatedTarget as Node | null;
    if (to && (event.currentTarget as Node).contains(to)) return;
    this._dragging = false;
  }

  #onDrop(event: DragEvent): void {
    event.preventDefault();
    this._dragging = false;
    void this.addFiles([...(event.dataTransfer?.files ?? [])]);
  }

  /** Runs a row action, then keeps keyboard focus in the row (or on the drop zone if it left). */
  async #act(item: Item, action: (id: string) => void): Promise<void> {
    const index = this._items.indexOf(item);
    action.call(this, item.id);
    await this.updateComplete;
    const rows = this.renderRoot.querySelectorAll<HTMLElement>('li[data-id]');
    const row =
      this.renderRoot.querySelector<HTMLElement>(`li[data-id="${item.id}"]`) ?? rows[Math.min(index, rows.length - 1)];
    const target =
      row?.querySelector<HTMLElement>('button') ?? this.renderRoot.querySelector<HTMLElement>('[part~=dropzone]');
    target?.focus();
  }

  override render(): TemplateResult {
    const s = this.#s;
    const maxSize = this.maxSize ?? this._configMaxSize;
    const hint = [
      this.accept ? format(s.hintAccept, { accept: describeAccept(this.accept, s.acceptAnyVideo) }) : '',
      maxSize !== undefined ? format(s.hintMaxSize, { max: formatBytes(maxSize, this.#l10n.locale) }) : '',
    ]
      .filter(Boolean)
      .join(' ');
    return html`<div dir=${this.#l10n.dir}>
      <button
        type="button"
        part="dropzone"
        class="dropzone"
        aria-describedby="hint"
        @click=${this.openFileChooser}
        @dragenter=${this.#onDragOver}
        @dragover=${this.#onDragOver}
        @dragleave=${this.#onDragLeave}
        @drop=${this.#onDrop}
      >
        <slot>${this._dragging ? s.dropzoneActive : this.multiple ? s.dropzone : s.dropzoneSingle}</slot>
      </button>
      <p id="hint" part="hint" class="hint">${hint}</p>
      <input
        type="file"
        hidden
        accept=${this.accept}
        capture=${ifDefined(this.capture === 'user' || this.capture === 'environment' ? this.capture : undefined)}
        ?multiple=${this.multiple}
        @change=${this.#onChange}
      />
      ${this._items.length
        ? html`<ul part="list" class="list" aria-label=${s.listLabel}>
            ${repeat(
              this._items,
              (item) => item.id,
              (item) => this.#renderItem(item),
            )}
          </ul>`
        : nothing}
      <div part="status" class="visually-hidden" role="status" aria-live="polite">${this._announcement}</div>
    </div>`;
  }

  #renderItem(item: Item): TemplateResult {
    const s = this.#s;
    const total = item.size;
    const details = this.#details(item);
    return html`<li part="item item-${item.state}" class="item" data-id=${item.id} data-state=${item.state}>
      <span part="name" class="name">${item.name}</span>
      ${total !== undefined ? html`<span part="size" class="size">${formatBytes(total, this.#l10n.locale)}</span>` : nothing}
      ${this.#renderProgress(item)}
      ${details ? html`<span part="details" class="details">${details}</span>` : nothing}
      <span part="state" class="state">${this.#stateText(item)}</span>
      ${item.error ? html`<span part="error" class="error">${this.#errorText(item)}</span>` : nothing}
      ${item.vod
        ? html`<span part="vod" class="vod">${format(s.vod, { id: item.vod.id, title: item.vod.title })}</span>`
        : nothing}
      <span part="actions" class="actions">
        ${BUSY.includes(item.state)
          ? html`<button
              type="button"
              part="button cancel-button"
              aria-label=${format(s.cancelLabel, { name: item.name })}
              @click=${() => this.#act(item, this.cancelItem)}
            >
              ${s.cancel}
            </button>`
          : nothing}
        ${this.#canRetry(item)
          ? html`<button
              type="button"
              part="button retry-button"
              aria-label=${format(s.retryLabel, { name: item.name })}
              @click=${() => this.#act(item, this.retryItem)}
            >
              ${s.retry}
            </button>`
          : nothing}
        ${!ACTIVE.includes(item.state) && item.state !== 'queued'
          ? html`<button
              type="button"
              part="button remove-button"
              aria-label=${format(s.removeLabel, { name: item.name })}
              @click=${() => this.#act(item, this.removeItem)}
            >
              ${s.remove}
            </button>`
          : nothing}
      </span>
    </li>`;
  }

  #renderProgress(item: Item): TemplateResult | typeof nothing {
    const label = format(this.#s.progressLabel, { name: item.name });
    if (item.state === 'processing') {
      // Indeterminate: the service tells nothing about how far processing is.
      return html`<progress part="progress" aria-label=${label}></progress>`;
    }
    if (item.size === undefined || !['signing', 'uploading', 'ready'].includes(item.state)) return nothing;
    const loaded = item.state === 'ready' ? item.size : item.loaded;
    return html`<progress
      part="progress"
      aria-label=${label}
      max=${Math.max(1, item.size)}
      .value=${loaded}
      aria-valuetext=${format(this.#s.bytes, { loaded: formatBytes(loaded, this.#l10n.locale), total: formatBytes(item.size, this.#l10n.locale) })}
    ></progress>`;
  }

  #details(item: Item): string {
    if (item.state !== 'uploading' || item.size === undefined) return '';
    const s = this.#s;
    const parts = [format(s.bytes, { loaded: formatBytes(item.loaded, this.#l10n.locale), total: formatBytes(item.size, this.#l10n.locale) })];
    const speed = item.rate.bytesPerSecond;
    if (speed && !item.sent) {
      parts.push(format(s.speed, { speed: formatBytes(speed, this.#l10n.locale) }));
      const left = item.rate.secondsLeft(item.size - item.loaded);
      if (left !== undefined) parts.push(format(s.timeLeft, { time: formatDuration(left, this.#l10n.locale) }));
    }
    return parts.join(' · ');
  }

  /** The element's own message, else the viewer's message for the code (never a relay's English sentence). */
  #errorText(item: Item): string {
    return item.ownMessage ? item.error!.message : this.#l10n.error(item.error!.code);
  }

  #stateText(item: Item): string {
    const s = this.#s;
    if (item.note?.kind === 'renewing') return s.stateRenewing;
    if (item.note?.kind === 'retrying') {
      return format(s.stateRetrying, { attempt: item.note.attempt, max: this.networkRetries });
    }
    switch (item.state) {
      case 'queued':
        return s.stateQueued;
      case 'signing':
        return s.stateSigning;
      case 'uploading':
        return item.sent ? s.stateFinishing : s.stateUploading;
      case 'processing':
        return item.stillProcessing ? s.stateStillProcessing : s.stateProcessing;
      case 'ready':
        return s.stateReady;
      case 'failed':
        return s.stateFailed;
      case 'cancelled':
        return s.stateCancelled;
    }
  }
}

declare global {
  interface HTMLElementEventMap {
    'svc-upload-select': CustomEvent<SvcUploadSelectDetail>;
    'svc-upload-start': CustomEvent<SvcUploadStartDetail>;
    'svc-upload-progress': CustomEvent<SvcUploadProgressDetail>;
    'svc-upload-uploaded': CustomEvent<SvcUploadUploadedDetail>;
    'svc-upload-ready': CustomEvent<SvcUploadReadyDetail>;
    'svc-upload-cancel': CustomEvent<SvcUploadCancelDetail>;
  }
}
