// The details of <svc-uploader>'s events and the rows it shows the page.
import type { UploadRowState } from '../../core/upload-queue.js';
import type { SvcErrorDetail } from '../shared/events.js';

export type SvcUploadItemState = UploadRowState;

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
