// Registers <svc-uploader> (importing this module is the side effect).
import { SvcUploader } from './svc-uploader.js';

SvcUploader.define();

declare global {
  interface HTMLElementTagNameMap {
    'svc-uploader': SvcUploader;
  }
}
