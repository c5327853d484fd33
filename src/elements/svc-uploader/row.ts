// What one upload row shows: name, size, progress, details, state, error, video and the buttons
// its state allows, and the reasons the queue fails a row itself: row, port and list in. Its
// buttons act through the element's public methods (`RowActions`) and keep the keyboard focus.
import { html, nothing, type TemplateResult } from 'lit';
import { guard } from 'lit/directives/guard.js';
import { repeat } from 'lit/directives/repeat.js';
import type { FailureReason, UploadRow } from '../../core/upload-queue.js';
import { format, numberFormat } from '../shared/intl.js';
import type { ElementPort } from '../shared/part.js';
import type { SvcUploaderStrings } from './strings.js';

export type RowAction = 'cancel' | 'retry' | 'remove';
export type Port = ElementPort<SvcUploaderStrings>;

/** The element's public actions on its rows: the list's buttons call them as a page would. */
export interface RowActions {
  /** Every row now (a row rendered earlier may be an older snapshot). */
  readonly items: readonly { readonly id: string }[];
  cancelItem(id: string): void;
  retryItem(id: string): void;
  removeItem(id: string): void;
  retryFailed(): void;
  clearFinished(): void;
}

/** What the list needs from its element beside the port: the rows, and what acts on them. */
export interface List {
  rows: readonly UploadRow[];
  /** The queue waits (429 or 503) until it may go on. */
  waiting: boolean;
  /** In a long list, ready rows are listed too. */
  showReady: boolean;
  toggleReady(): void;
  actions: RowActions;
  canRetry(row: UploadRow): boolean;
  networkRetries: number;
  /** A size in the viewer's language (format.ts stays in the element's first download, not in a shared chunk). */
  bytes(value: number): string;
}

const BUSY = ['queued', 'signing', 'uploading'];

/**
 * The rows, keyed by id so that a row keeps its DOM (and focus) while the list changes; a row is
 * rendered again only when its snapshot (the queue replaces a row on each change) or the language
 * changed, so one file's progress does not re-render hundreds of rows.
 */
export function renderRows(rows: readonly UploadRow[], port: Port, list: List): unknown {
  return repeat(
    rows,
    (row) => row.id,
    (row) => guard([row, port.strings, port.locale, list.networkRetries], () => renderRow(row, port, list)),
  );
}

export function renderRow(row: UploadRow, port: Port, list: List): TemplateResult {
  const s = port.strings;
  const { bytes } = list;
  const button = (action: RowAction, label: string, text: string) =>
    html`<button type="button" part="button ${action}-button" aria-label=${format(label, { name: row.name })} @click=${() => act(row, action, port, list.actions)}>
      ${text}
    </button>`;
  return html`<li part="item item-${row.state}" class="item" data-id=${row.id} data-state=${row.state}>
    <span part="name" class="name">${row.name}</span>
    ${row.size !== undefined ? html`<span part="size" class="size">${bytes(row.size)}</span>` : nothing}
    ${renderProgress(row, s, bytes)} ${renderDetails(row, port, bytes)}
    <span part="state" class="state">${stateText(row, port, list)}</span>
    ${row.error ? html`<span part="error" class="error">${rowErrorText(port, row)}</span>` : nothing}
    ${row.vod ? html`<span part="vod" class="vod">${format(s.vod, row.vod)}</span>` : nothing}
    <span part="actions" class="actions"
      >${BUSY.includes(row.state) ? button('cancel', s.cancelLabel, s.cancel) : nothing}${list.canRetry(row)
        ? button('retry', s.retryLabel, s.retry)
        : nothing}${BUSY.includes(row.state) ? nothing : button('remove', s.removeLabel, s.remove)}</span
    >
  </li>`;
}

function renderProgress(row: UploadRow, s: SvcUploaderStrings, bytes: (value: number) => string): TemplateResult | typeof nothing {
  const label = format(s.progressLabel, { name: row.name });
  // Indeterminate while processing: the service tells nothing about how far it is.
  if (row.state === 'processing') return html`<progress part="progress" aria-label=${label}></progress>`;
  if (row.size === undefined || !['signing', 'uploading', 'ready'].includes(row.state)) return nothing;
  const loaded = row.state === 'ready' ? row.size : row.loaded;
  return html`<progress
    part="progress"
    aria-label=${label}
    max=${Math.max(1, row.size)}
    .value=${loaded}
    aria-valuetext=${format(s.bytes, { loaded: bytes(loaded), total: bytes(row.size) })}
  ></progress>`;
}

function renderDetails(row: UploadRow, port: Port, bytes: (value: number) => string): TemplateResult | typeof nothing {
  if (row.state !== 'uploading' || row.size === undefined) return nothing;
  const s = port.strings;
  const parts = [format(s.bytes, { loaded: bytes(row.loaded), total: bytes(row.size) })];
  if (row.bytesPerSecond && !row.sent) {
    parts.push(format(s.speed, { speed: bytes(row.bytesPerSecond) }));
    if (row.secondsLeft !== undefined) parts.push(format(s.timeLeft, { time: formatDuration(row.secondsLeft, port.locale) }));
  }
  return html`<span part="details" class="details">${parts.join(' · ')}</span>`;
}

function stateText(row: UploadRow, port: Port, list: List): string {
  const s = port.strings;
  if (row.note?.kind === 'renewing') return s.stateRenewing;
  if (row.note?.kind === 'retrying') return format(s.stateRetrying, { attempt: row.note.attempt, max: list.networkRetries }, port.locale);
  if (row.state === 'uploading' && row.sent) return s.stateFinishing;
  if (row.state === 'processing' && row.stillProcessing) return s.stateStillProcessing;
  const texts: Record<UploadRow['state'], string> = {
    queued: s.stateQueued,
    signing: s.stateSigning,
    uploading: s.stateUploading,
    processing: s.stateProcessing,
    ready: s.stateReady,
    failed: s.stateFailed,
    cancelled: s.stateCancelled,
  };
  return texts[row.state];
}

/** A failed row's message: the element's own (a rejected file), else the viewer's message for its code. */
export function rowErrorText(port: Port, row: UploadRow): string {
  return row.reason ? row.error!.message : port.errorText(row.error!.code);
}

/** Why the queue failed `row` itself, in the viewer's words (`accept`: the accepted types in words). */
export function failureText(
  s: SvcUploaderStrings,
  reason: FailureReason,
  row: UploadRow,
  { accept, maxSize, bytes }: { accept: string; maxSize?: number; bytes(value: number): string },
): string {
  const templates: Record<FailureReason, string> = {
    empty: s.rejectedEmpty,
    type: s.rejectedType,
    size: s.rejectedSize,
    content: s.rejectedContent,
    processing: s.processingFailed,
    unknown: s.unknownUpload,
  };
  return format(templates[reason], {
    name: row.name,
    accept,
    size: bytes(row.size ?? 0),
    max: bytes(maxSize ?? 0),
  });
}

/** The time left of a transfer (only rows show it): `45 sec`, `3 min 5 sec`, `1 hr 2 min`. */
export function formatDuration(seconds: number, locale?: string): string {
  const unit = (value: number, name: 'hour' | 'minute' | 'second') =>
    numberFormat(locale, { style: 'unit', unit: name, unitDisplay: 'short' }).format(value);
  const total = Math.max(0, Math.round(seconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total % 60;
  if (hours) return `${unit(hours, 'hour')} ${unit(minutes, 'minute')}`;
  if (minutes) return `${unit(minutes, 'minute')} ${unit(rest, 'second')}`;
  return unit(rest, 'second');
}

/** Runs a row action, then keeps keyboard focus in the row (or the next one, or the drop zone). */
function act(row: UploadRow, action: RowAction, port: Port, actions: RowActions): void {
  const index = actions.items.findIndex((other) => other.id === row.id) + 1;
  ({ cancel: actions.cancelItem, retry: actions.retryItem, remove: actions.removeItem })[action].call(actions, row.id);
  port.focus(`li[data-id="${row.id}"] button`, `li:nth-child(${index}) button`, 'li:last-child button', '[part~=dropzone]');
}
