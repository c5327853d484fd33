// The list's overall view, loaded with the rows (lazy.ts): the line above the list (how many are
// ready of all, the queue waiting, "Retry failed" and "Clear finished"), the fold of ready rows in a
// long list, and the summary the live region speaks: the element's port and the list in; its two
// buttons act through the element's public methods and keep the keyboard focus.
import { html, nothing, type TemplateResult } from 'lit';
import type { UploadRow } from '../../core/upload-queue.js';
import { format } from '../shared/intl.js';
import { renderRows, type List, type Port } from './row.js';
import type { SvcUploaderStrings } from './strings.js';

/** From this many rows, ready rows are folded into one line (a button lists them again). */
const FOLD_READY_FROM = 10;

export interface Counts {
  busy: number;
  processing: number;
  ready: number;
  failed: number;
  cancelled: number;
}

export function counts(rows: readonly UploadRow[]): Counts {
  const counted = { busy: 0, processing: 0, ready: 0, failed: 0, cancelled: 0 };
  for (const { state } of rows) {
    if (state === 'queued' || state === 'signing' || state === 'uploading') counted.busy++;
    else counted[state]++;
  }
  return counted;
}

const listFormats = new Map<string, Intl.ListFormat>();
/** One list formatter per language (made once: a formatter costs far more than a format). */
function listFormat(locale: string): Intl.ListFormat {
  let formatter = listFormats.get(locale);
  if (!formatter) listFormats.set(locale, (formatter = new Intl.ListFormat(locale, { type: 'unit' })));
  return formatter;
}

/** How many are where: "3 uploading, 12 ready, 1 failed." */
export function summaryText(rows: readonly UploadRow[], s: SvcUploaderStrings, locale: string): string {
  const counted = counts(rows);
  const parts = (
    [
      [counted.busy, s.countUploading],
      [counted.processing, s.countProcessing],
      [counted.ready, s.countReady],
      [counted.failed, s.countFailed],
    ] as const
  ).flatMap(([count, text]) => (count ? [format(text, { count }, locale)] : []));
  return parts.length ? `${listFormat(locale).format(parts)}.` : '';
}

/** The line above the list: the overall count, the queue waiting, and the buttons acting on every row. */
function renderSummary(port: Port, list: List): TemplateResult {
  const { strings: s, locale } = port;
  const counted = counts(list.rows);
  const retryable = list.rows.some((row) => row.state === 'failed' && list.canRetry(row));
  const count = [format(s.summary, { ready: counted.ready, total: list.rows.length }, locale)];
  if (counted.failed) count.push(format(s.countFailed, { count: counted.failed }, locale));
  return html`<div part="summary" class="summary">
    <span part="count" class="count">${count.join(' · ')}</span>
    ${list.waiting ? html`<span part="waiting" class="waiting">${s.waiting}</span>` : nothing}
    <span class="actions">
      ${retryable
        ? html`<button type="button" part="button retry-failed-button" @click=${() => actOnAll(port, list, 'retryFailed', 'retry-failed-button')}>${s.retryFailed}</button>`
        : nothing}
      ${counted.ready || counted.cancelled
        ? html`<button type="button" part="button clear-finished-button" @click=${() => actOnAll(port, list, 'clearFinished', 'clear-finished-button')}>
            ${s.clearFinished}
          </button>`
        : nothing}
    </span>
  </div>`;
}

/** Runs an action on every row, then keeps keyboard focus on its button (or the drop zone, once it is gone). */
function actOnAll(port: Port, list: List, action: 'retryFailed' | 'clearFinished', part: string): void {
  list.actions[action]();
  port.focus(`[part~=${part}]`, '[part~=dropzone]');
}

/** In a long list, the ready rows are one line with a button that lists them (or folds them again). */
function listed(port: Port, list: List): { rows: readonly UploadRow[]; folded?: TemplateResult } {
  const { rows, showReady } = list;
  const ready = rows.filter((row) => row.state === 'ready').length;
  if (rows.length < FOLD_READY_FROM || !ready) return { rows };
  const s = port.strings;
  const toggle = html`<button
    type="button"
    part="button fold-button"
    aria-expanded=${showReady ? 'true' : 'false'}
    aria-controls="list"
    @click=${() => list.toggleReady()}
  >
    ${showReady ? s.hideReady : s.showReady}
  </button>`;
  const folded = html`<p part="folded" class="folded">
    ${showReady ? nothing : format(s.readyHidden, { count: ready }, port.locale)} ${toggle}
  </p>`;
  return { rows: showReady ? rows : rows.filter((row) => row.state !== 'ready'), folded };
}

/** The list: the summary line (from two rows on, or while the queue waits), the fold, and the rows. */
export function renderList(port: Port, list: List): TemplateResult {
  const { rows, folded } = listed(port, list);
  // One row says it all itself (its own Retry and Remove); from two on, the line above sums up.
  const summary = list.rows.length > 1 || list.waiting;
  return html`${summary ? renderSummary(port, list) : nothing}${folded ?? nothing}
    <ul id="list" part="list" class="list" aria-label=${port.strings.listLabel}>
      ${renderRows(rows, port, list)}
    </ul>`;
}
