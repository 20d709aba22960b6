/**
 * A map holding at most `max` entries, the least recently used evicted first: for caches
 * whose keys come from clients (a flood of new keys must not grow memory).
 */
export class LruMap<K, V> {
  private readonly map = new Map<K, V>()

  constructor(private readonly max: number) {}

  get size(): number {
    return this.map.size
  }

  has(key: K): boolean {
    return this.map.has(key)
  }

  get(key: K): V | undefined {
    if (!this.map.has(key)) return undefined
    const v = this.map.get(key) as V
    // Map order is insertion order: re-inserting marks the entry as the most recent.
    this.map.delete(key)
    this.map.set(key, v)
    return v
  }

  set(key: K, value: V): void {
    this.map.delete(key)
    this.map.set(key, value)
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as K)
  }

  delete(key: K): void {
    this.map.delete(key)
  }

  clear(): void {
    this.map.clear()
  }
}
