// Connects an upload queue to its element: each change of the queue renders the element again,
// the queue follows processing uploads only while the element is in the page, and the rows'
// styles (loaded with the queue) join the element's.
import { adoptStyles, type CSSResult, type LitElement, type ReactiveController } from 'lit';
import type { UploadQueue } from '../../core/upload-queue.js';

export class QueueController implements ReactiveController {
  #unsubscribe?: () => void;

  constructor(
    private readonly host: LitElement,
    readonly queue: UploadQueue,
    private readonly rowStyles: CSSResult,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    const { elementStyles } = this.host.constructor as typeof LitElement;
    adoptStyles(this.host.renderRoot as ShadowRoot, [...elementStyles, this.rowStyles]);
    this.#unsubscribe = this.queue.subscribe(() => this.host.requestUpdate());
    this.queue.attach();
    this.host.requestUpdate();
  }

  hostDisconnected(): void {
    this.#unsubscribe?.();
    this.queue.detach();
  }
}
