// What one upload row shows: name, size, progress, details, state, error, video and the buttons
// its state allows, and the reasons the queue fails a row itself. Pure: row and strings in.
import { html, nothing, type TemplateResult } from 'lit';
import { guard } from 'lit/directives/guard.js';
import { repeat } from 'lit/directives/repeat.js';
import type { FailureReason, UploadRow } from '../../core/upload-queue.js';
import { numberFormat } from '../shared/intl.js';
import { format } from '../shared/strings.js';
import type { SvcUploaderStrings } from './strings.js';

export type RowAction = 'cancel' | 'retry' | 'remove';

/** What a row needs from its element. */
export interface RowView {
  strings: SvcUploaderStrings;
  /** The tag for Intl formatters. */
  locale: string;
  /** A size in the viewer's language (`format.ts`, which the element has loaded already). */
  bytes(value: number): string;
  networkRetries: number;
  canRetry(row: UploadRow): boolean;
  errorText(row: UploadRow): string;
  act(row: UploadRow, action: RowAction): void;
}

const BUSY = ['queued', 'signing', 'uploading'];

/**
 * The rows, keyed by id so that a row keeps its DOM (and focus) while the list changes; a row is
 * rendered again only when its snapshot (the queue replaces a row on each change) or the language
 * changed, so one file's progress does not re-render hundreds of rows.
 */
export function renderRows(rows: readonly UploadRow[], view: RowView): unknown {
  return repeat(
    rows,
    (row) => row.id,
    (row) => guard([row, view.strings, view.locale, view.networkRetries], () => renderRow(row, view)),
  );
}

export function renderRow(row: UploadRow, view: RowView): TemplateResult {
  const s = view.strings;
  const button = (action: RowAction, label: string, text: string) =>
    html`<button type="button" part="button ${action}-button" aria-label=${format(label, { name: row.name })} @click=${() => view.act(row, action)}>
      ${text}
    </button>`;
  return html`<li part="item item-${row.state}" class="item" data-id=${row.id} data-state=${row.state}>
    <span part="name" class="name">${row.name}</span>
    ${row.size !== undefined ? html`<span part="size" class="size">${view.bytes(row.size)}</span>` : nothing}
    ${renderProgress(row, view)} ${renderDetails(row, view)}
    <span part="state" class="state">${stateText(row, view)}</span>
    ${row.error ? html`<span part="error" class="error">${view.errorText(row)}</span>` : nothing}
    ${row.vod ? html`<span part="vod" class="vod">${format(s.vod, row.vod)}</span>` : nothing}
    <span part="actions" class="actions"
      >${BUSY.includes(row.state) ? button('cancel', s.cancelLabel, s.cancel) : nothing}${view.canRetry(row)
        ? button('retry', s.retryLabel, s.retry)
        : nothing}${BUSY.includes(row.state) ? nothing : button('remove', s.removeLabel, s.remove)}</span
    >
  </li>`;
}

function renderProgress(row: UploadRow, { strings: s, bytes }: RowView): TemplateResult | typeof nothing {
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

function renderDetails(row: UploadRow, view: RowView): TemplateResult | typeof nothing {
  if (row.state !== 'uploading' || row.size === undefined) return nothing;
  const { strings: s, bytes } = view;
  const parts = [format(s.bytes, { loaded: bytes(row.loaded), total: bytes(row.size) })];
  if (row.bytesPerSecond && !row.sent) {
    parts.push(format(s.speed, { speed: bytes(row.bytesPerSecond) }));
    if (row.secondsLeft !== undefined) parts.push(format(s.timeLeft, { time: formatDuration(row.secondsLeft, view.locale) }));
  }
  return html`<span part="details" class="details">${parts.join(' · ')}</span>`;
}

function stateText(row: UploadRow, view: RowView): string {
  const s = view.strings;
  if (row.note?.kind === 'renewing') return s.stateRenewing;
  if (row.note?.kind === 'retrying') return format(s.stateRetrying, { attempt: row.note.attempt, max: view.networkRetries }, view.locale);
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
