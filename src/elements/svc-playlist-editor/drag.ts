// Reordering rows by native drag and drop: which row is dragged, which row it is over and on which
// half (where it would land), and the move on drop. The element renders `state` and reacts to
// `onMove`; nothing is dragged while `refuse()` says so (a save in flight).
import type { ReactiveControllerHost } from 'lit';
import type { Drag } from './items.js';

export class RowDrag {
  state: Drag | undefined;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly refuse: () => boolean,
    private readonly onMove: (from: number, to: number) => void,
    private readonly idOf: (index: number) => string,
  ) {}

  start(event: DragEvent, index: number): void {
    if (this.refuse()) {
      event.preventDefault();
      return;
    }
    this.#set({ from: index });
    event.dataTransfer?.setData('text/plain', this.idOf(index));
    if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move';
  }

  over(event: DragEvent, index: number): void {
    if (!this.state) return;
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'move';
    const rect = (event.currentTarget as HTMLElement).getBoundingClientRect();
    const side = event.clientY < rect.top + rect.height / 2 ? 'before' : 'after';
    const { over } = this.state;
    if (over?.index !== index || over.side !== side) this.#set({ ...this.state, over: { index, side } });
  }

  drop(event: DragEvent, index: number): void {
    if (!this.state) return;
    event.preventDefault();
    const { from, over } = this.state;
    const insertion = over?.index === index && over.side === 'after' ? index + 1 : index;
    const to = from < insertion ? insertion - 1 : insertion;
    this.end();
    if (to !== from) this.onMove(from, to);
  }

  end = (): void => this.#set(undefined);

  #set(state: Drag | undefined): void {
    this.state = state;
    this.host.requestUpdate();
  }
}
