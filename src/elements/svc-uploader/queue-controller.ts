// Connects an upload queue to its element: each change of the queue renders the element again,
// and the queue follows processing uploads only while the element is in the page.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { UploadQueue } from '../../core/upload-queue.js';

export class QueueController implements ReactiveController {
  #unsubscribe?: () => void;

  constructor(
    private readonly host: ReactiveControllerHost,
    readonly queue: UploadQueue,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.#unsubscribe = this.queue.subscribe(() => this.host.requestUpdate());
    this.queue.attach();
    this.host.requestUpdate();
  }

  hostDisconnected(): void {
    this.#unsubscribe?.();
    this.queue.detach();
  }
}
