// The stateful mock's memory: items by collection (a resource's name and its parent ids, store-keys.ts), each with
// a version for its ETag. Bounded, because what it holds comes from outside: items per collection and bytes in all
// (each item measured once, as its JSON text, kept: a read serves it as is); past either bound the oldest item of all goes first, and the first
// eviction is said once (onEvict), not per item.

export interface StoredItem {
  id: string;
  value: Record<string, unknown>;
  /** Bumped by every change: the strong ETag `"<version>"` (RFC 9110 section 8.8.3). */
  version: number;
  /** State changes (actions) already applied to this version: a repeat is a conflict where one is documented. */
  done: Set<string>;
  /** `value` as JSON, made once per change: what a read serves and what the bytes bound counts. */
  text: string;
  bytes: number;
}

export interface StoreBounds {
  /** Items kept per collection (default 1,000). */
  maxItems: number;
  /** Bytes of JSON all items together may hold (default 64 MB). */
  maxBytes: number;
}

export const defaultStoreBounds: StoreBounds = { maxItems: 1000, maxBytes: 64 * 1024 * 1024 };

export class ResourceStore {
  private readonly collections = new Map<string, Map<string, StoredItem>>();
  /** Every item in insertion order, for evicting the oldest across collections. */
  private readonly order = new Map<StoredItem, string>();
  private bytes = 0;
  private versions = 0;
  private evicted = false;

  constructor(
    readonly bounds: StoreBounds = defaultStoreBounds,
    private readonly onEvict: (message: string) => void = () => undefined,
  ) {}

  get(collection: string, id: string): StoredItem | undefined {
    return this.collections.get(collection)?.get(id);
  }

  has(collection: string, id: string): boolean {
    return this.collections.get(collection)?.has(id) === true;
  }

  /** The items of a collection, oldest first. */
  list(collection: string): StoredItem[] {
    return [...(this.collections.get(collection)?.values() ?? [])];
  }

  /** Stores (or replaces) an item; returns it. */
  put(collection: string, id: string, value: Record<string, unknown>): StoredItem {
    this.remove(collection, id);
    const text = JSON.stringify(value) ?? '';
    const item: StoredItem = {
      id,
      value,
      version: ++this.versions,
      done: new Set(),
      text,
      bytes: text.length + id.length,
    };
    let items = this.collections.get(collection);
    if (!items) this.collections.set(collection, (items = new Map()));
    items.set(id, item);
    this.order.set(item, collection);
    this.bytes += item.bytes;
    while (items.size > this.bounds.maxItems) this.evictOldest(items.values().next().value!, collection, 'items');
    while (this.bytes > this.bounds.maxBytes && this.order.size > 1) {
      const [oldest, where] = this.order.entries().next().value!;
      this.evictOldest(oldest, where, 'bytes');
    }
    return item;
  }

  /** Changes an item in place (its place in its list kept); a new version, its done state changes cleared. */
  update(item: StoredItem, value: Record<string, unknown>): StoredItem {
    const text = JSON.stringify(value) ?? '';
    const bytes = text.length + item.id.length;
    this.bytes += bytes - item.bytes;
    Object.assign(item, { value, text, bytes, version: ++this.versions });
    item.done.clear();
    return item;
  }

  remove(collection: string, id: string): boolean {
    const items = this.collections.get(collection);
    const item = items?.get(id);
    if (!items || !item) return false;
    items.delete(id);
    this.order.delete(item);
    this.bytes -= item.bytes;
    if (items.size === 0) this.collections.delete(collection);
    return true;
  }

  clear(): void {
    this.collections.clear();
    this.order.clear();
    this.bytes = 0;
  }

  /** The state as plain JSON: `{ "<collection>": [item, …] }`, oldest first. */
  snapshot(): Record<string, unknown[]> {
    const state: Record<string, unknown[]> = {};
    for (const [collection, items] of this.collections)
      state[collection] = [...items.values()].map((item) => item.value);
    return state;
  }

  private evictOldest(item: StoredItem, collection: string, bound: 'items' | 'bytes'): void {
    this.remove(collection, item.id);
    if (this.evicted) return;
    this.evicted = true;
    this.onEvict(
      bound === 'items'
        ? `sandbox: ${collection} holds more than ${this.bounds.maxItems} items; the oldest are dropped (said once)`
        : `sandbox: the state is over ${this.bounds.maxBytes} bytes; the oldest items are dropped (said once)`,
    );
  }
}
