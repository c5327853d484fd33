// How files reach the uploader besides its `addFiles()`: the file chooser, a drop on the drop zone
// (with `dragging` while files are over it, reflected as the `dragover` attribute) and a paste
// while the element has focus; each hands its files to `addFiles()`. And while they are on their
// way (the element's state is `uploading`), leaving the page asks for confirmation first.
import type { ReactiveController, ReactiveElement } from 'lit';

type Host = ReactiveElement & { readonly state: string; addFiles(files: Iterable<File>): Promise<void> };

export class FileIntake implements ReactiveController {
  /** Files are being dragged over the drop zone. */
  dragging = false;

  constructor(private readonly host: Host) {
    host.addController(this);
  }

  hostConnected(): void {
    // Paste fires on the focused element; from the drop zone it reaches the host through the shadow root.
    this.host.addEventListener('paste', this.#onPaste);
  }

  hostDisconnected(): void {
    this.host.removeEventListener('paste', this.#onPaste);
    this.#guardUnload(false);
  }

  hostUpdated(): void {
    this.host.toggleAttribute('dragover', this.dragging);
    this.#guardUnload(this.host.isConnected && this.host.state === 'uploading');
  }

  /** The file input's `change`. */
  readonly change = (event: Event): void => {
    const input = event.target as HTMLInputElement;
    const files = [...(input.files ?? [])];
    input.value = ''; // so choosing the same file again fires change
    void this.host.addFiles(files);
  };

  /** The drop zone's `dragenter` and `dragover`: it takes files (and only files). */
  readonly dragover = (event: DragEvent): void => {
    if (!event.dataTransfer?.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    this.#drag(true);
  };

  /** The drop zone's `dragleave`, unless the pointer only moved onto something inside it. */
  readonly dragleave = (event: DragEvent): void => {
    const to = event.relatedTarget as Node | null;
    if (to && (event.currentTarget as Node).contains(to)) return;
    this.#drag(false);
  };

  /** The drop zone's `drop`. */
  readonly drop = (event: DragEvent): void => {
    event.preventDefault();
    this.#drag(false);
    void this.host.addFiles([...(event.dataTransfer?.files ?? [])]);
  };

  /** Files pasted while the element (its drop zone) has focus are added like dropped ones. */
  readonly #onPaste = (event: ClipboardEvent): void => {
    const files = [...(event.clipboardData?.files ?? [])];
    if (!files.length) return;
    event.preventDefault();
    void this.host.addFiles(files);
  };

  /** Renders again only on a change, as a `@state` would (`dragover` keeps firing while files are over the drop zone). */
  #drag(on: boolean): void {
    if (on === this.dragging) return;
    this.dragging = on;
    this.host.requestUpdate();
  }

  // Each element has its own listener: window keeps one registration per listener, so a shared
  // one would be removed by the first uploader to finish while another still uploads. Adding or
  // removing it again is a no-op.
  readonly #onBeforeUnload = (event: BeforeUnloadEvent): void => {
    event.preventDefault();
    event.returnValue = ''; // older browsers need a value to show the dialog
  };

  #guardUnload(on: boolean): void {
    if (on) window.addEventListener('beforeunload', this.#onBeforeUnload);
    else window.removeEventListener('beforeunload', this.#onBeforeUnload);
  }
}
