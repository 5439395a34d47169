/**
 * A bounded map in recency order: a hit moves the entry to the end, eviction takes the front.
 * `weigh` gives an entry's cost (1 each by default) against `capacity`.
 */
export function lruMap<V>(capacity: number, weigh: (value: V) => number = () => 1) {
  const entries = new Map<string, V>();
  let used = 0;
  return {
    get(key: string): V | undefined {
      const value = entries.get(key);
      if (value !== undefined) {
        entries.delete(key);
        entries.set(key, value);
      }
      return value;
    },
    set(key: string, value: V): void {
      const old = entries.get(key);
      if (old !== undefined) {
        entries.delete(key);
        used -= weigh(old);
      }
      const weight = weigh(value);
      if (weight > capacity) return;
      entries.set(key, value);
      used += weight;
      for (const [oldest, evicted] of entries) {
        if (used <= capacity) break;
        entries.delete(oldest);
        used -= weigh(evicted);
      }
    },
    /** Re-weighs an entry whose value grew in place (e.g. a gzipped copy added). */
    grew(key: string, value: V, by: number): void {
      if (entries.get(key) === value) used += by;
    },
  };
}
