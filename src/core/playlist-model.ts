// The playlist edit model: what `<svc-playlist-editor>` edits. The service replaces a playlist's
// whole list on update and does not say whether a retrieved item is a VOD or a channel, so the
// model keeps every item (an item of unknown type is flagged, never dropped), remembers the loaded
// base to tell whether anything changed, keeps a history for undo, and refuses to produce the
// update items while a type is unknown. Immutable: every change returns a new model.
import { SvcError } from './errors.js';
import type { ContentType, PlaylistUpdateItem } from '../service/types.js';

export interface PlaylistEntry {
  id: string;
  /** `null` while nobody knows whether the item is a VOD or a channel. */
  type: ContentType | null;
  /** The title as the service or the library gave it; `''` when not known yet. */
  title: string;
  /**
   * True when the type came from the relay or the library; false when the user chose it (or has
   * yet to). Only a type that is not fixed may be set with `setType`.
   */
  typeFixed: boolean;
}

/** The parts of a retrieved (relay-annotated) playlist the model reads. */
export interface PlaylistSource {
  content: {
    list: ReadonlyArray<{ id: string; position: string; title: string; type?: ContentType | null }> | null;
  } | null;
}

/** What kind of change produced a model; carried by `svc-playlist-change`. */
export type PlaylistChangeKind = 'add' | 'remove' | 'move' | 'type' | 'undo' | 'revert' | 'reload';

type Items = readonly PlaylistEntry[];

const CONTENT_TYPES: readonly ContentType[] = ['vod', 'channel'];

export function isContentType(value: unknown): value is ContentType {
  return (CONTENT_TYPES as readonly unknown[]).includes(value);
}

/** Ordered entries of a retrieved playlist: sorted by numeric position, ties kept in list order. */
export function entriesFromPlaylist(
  playlist: PlaylistSource,
  knownTypes: ReadonlyMap<string, ContentType> = new Map(),
): PlaylistEntry[] {
  const list = playlist.content?.list ?? [];
  return list
    .map((item, index) => ({ item, index, position: Number.parseInt(item.position, 10) }))
    .sort((a, b) => orderOf(a.position) - orderOf(b.position) || a.index - b.index)
    .map(({ item }) => {
      const relayType = isContentType(item.type) ? item.type : null;
      const type = relayType ?? knownTypes.get(item.id) ?? null;
      return { id: item.id, type, title: item.title ?? '', typeFixed: relayType !== null };
    });
}

function orderOf(position: number): number {
  // An item without a readable position goes last rather than being lost.
  return Number.isFinite(position) ? position : Number.MAX_SAFE_INTEGER;
}

function sameItems(a: Items, b: Items): boolean {
  return a.length === b.length && a.every((item, i) => item.id === b[i].id && item.type === b[i].type);
}

export class PlaylistModel {
  /** The items as last loaded or saved. */
  readonly base: Items;
  /** The items being edited, in order. */
  readonly items: Items;
  /** Earlier `items`, most recent last; `undo` pops one. */
  readonly #history: readonly Items[];
  /** The ids of `items`, made on the first `has` (the library asks it for each of its items on every render). */
  #ids?: ReadonlySet<string>;

  private constructor(base: Items, items: Items, history: readonly Items[]) {
    this.base = base;
    this.items = items;
    this.#history = history;
  }

  /** A model of a retrieved playlist, nothing changed yet. */
  static fromPlaylist(playlist: PlaylistSource): PlaylistModel {
    const items = Object.freeze(entriesFromPlaylist(playlist));
    return new PlaylistModel(items, items, []);
  }

  /** True when the items differ from the base (in order, ids or types; titles do not count). */
  get dirty(): boolean {
    return !sameItems(this.items, this.base);
  }

  get canUndo(): boolean {
    return this.#history.length > 0;
  }

  /** Indexes of items whose type is still unknown. */
  get untyped(): number[] {
    return this.items.flatMap((item, index) => (item.type === null ? [index] : []));
  }

  /** True when the id is already in the list. */
  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** The ids in the list; the same set for models that hold the same ids (after a move or a type). */
  get ids(): ReadonlySet<string> {
    return (this.#ids ??= new Set(this.items.map((item) => item.id)));
  }

  /**
   * Appends an item. An id already in the list is refused (the same model is returned): a
   * playlist plays each VOD or channel once, and a second copy would only confuse an editor.
   */
  add(entry: { id: string; type: ContentType | null; title?: string; typeFixed?: boolean }): PlaylistModel {
    const id = entry.id.trim();
    if (!id || this.has(id)) return this;
    const type = isContentType(entry.type) ? entry.type : null;
    const item: PlaylistEntry = {
      id,
      type,
      title: entry.title ?? '',
      typeFixed: type !== null && (entry.typeFixed ?? true),
    };
    return this.#change([...this.items, item]);
  }

  /** Removes the item at `index`; out of range changes nothing. */
  remove(index: number): PlaylistModel {
    if (!this.#inRange(index)) return this;
    return this.#change(this.items.filter((_, i) => i !== index));
  }

  /** Moves the item at `from` so that it ends at `to`; out of range or `from === to` changes nothing. */
  move(from: number, to: number): PlaylistModel {
    if (!this.#inRange(from) || !this.#inRange(to) || from === to) return this;
    const items = [...this.items];
    const [item] = items.splice(from, 1);
    items.splice(to, 0, item);
    return this.#change(items, this.#ids);
  }

  /** Gives a type to an item whose type is not fixed; anything else changes nothing. */
  setType(index: number, type: ContentType): PlaylistModel {
    const item = this.items[index];
    if (!item || item.typeFixed || !isContentType(type) || item.type === type) return this;
    return this.#change(this.items.map((it, i) => (i === index ? { ...it, type } : it)), this.#ids);
  }

  /** Undoes the last change (including a revert or a reload); with no history, changes nothing. */
  undo(): PlaylistModel {
    if (!this.canUndo) return this;
    return new PlaylistModel(this.base, this.#history[this.#history.length - 1], this.#history.slice(0, -1));
  }

  /** Back to the base; itself a change, so it can be undone. */
  revert(): PlaylistModel {
    return this.dirty ? this.#change(this.base) : this;
  }

  /**
   * A new base from a retrieved playlist (after a save, or someone else's version on reload).
   * Types the relay does not know are taken from the current items with the same id, so a type
   * the user chose is not lost. What was being edited stays in the history: undo brings it back.
   */
  rebase(playlist: PlaylistSource): PlaylistModel {
    const known = new Map<string, ContentType>();
    for (const item of this.items) if (item.type) known.set(item.id, item.type);
    const base = Object.freeze(entriesFromPlaylist(playlist, known));
    const history = sameItems(this.items, base) ? this.#history : [...this.#history, this.items];
    return new PlaylistModel(base, base, history);
  }

  /**
   * The whole list for the update operation, positions "1".."n". Throws `SvcError` with code
   * `type_required` (and the ids in `fields`) while any item's type is unknown.
   */
  toUpdateItems(): PlaylistUpdateItem[] {
    const untyped = this.untyped;
    if (untyped.length) {
      const fields = Object.fromEntries(untyped.map((i) => [this.items[i].id, 'type is unknown']));
      throw new SvcError(
        'type_required',
        `Choose whether ${untyped.length === 1 ? 'this item is' : 'these items are'} a VOD or a channel before saving: ` +
          untyped.map((i) => this.items[i].id).join(', '),
        0,
        fields,
      );
    }
    return this.items.map((item, i) => ({ id: item.id, type: item.type as ContentType, position: String(i + 1) }));
  }

  #inRange(index: number): boolean {
    return Number.isInteger(index) && index >= 0 && index < this.items.length;
  }

  /** `ids`: this model's ids, when the change keeps them. */
  #change(items: PlaylistEntry[] | Items, ids?: ReadonlySet<string>): PlaylistModel {
    const next = new PlaylistModel(this.base, Object.freeze([...items]), [...this.#history, this.items]);
    next.#ids = ids;
    return next;
  }
}
