/**
 * A map that keeps at most `capacity` entries, the least recently used going first. A `Map`
 * iterates in insertion order, so a use re-inserts its entry and the first key is the oldest.
 *
 * `set` returns what it pushed out rather than calling back: an owner that must release an
 * entry (a prepared statement to close on the database) can then await it.
 */
export class LruMap<K, V> {
  private readonly entries = new Map<K, V>();

  /** @param capacity at most this many entries are kept; 0 or less keeps none */
  constructor(readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** The value, counted as a use. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** Keeps the value as the most recent entry; returns the entries it pushed out, oldest first. */
  set(key: K, value: V): [K, V][] {
    this.entries.delete(key);
    if (this.capacity <= 0) return [[key, value]];
    this.entries.set(key, value);
    const evicted: [K, V][] = [];
    for (const [oldest, old] of this.entries) {
      if (this.entries.size <= this.capacity) break;
      this.entries.delete(oldest);
      evicted.push([oldest, old]);
    }
    return evicted;
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }
}
