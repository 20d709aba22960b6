/**
 * A pipeline point's tags or fields: the part of a Map's interface the library uses, kept as
 * two parallel arrays in insertion order, as a Map keeps it (setting a present key keeps its
 * place, a delete removes it, so a key set again goes last).
 *
 * Why not a Map: a log line's point gains some twenty keys through grok and user_agent, and a
 * Map grows its hash table three or four times on the way; with a thousand points a batch that
 * garbage was the pipeline's largest single cost (the collector at a fifth of its time). Arrays
 * grow once or twice. A lookup scans the keys, behind a mask of the key lengths present, so
 * a key absent from the point is mostly refused without a comparison; twenty short keys scan
 * in about the time a hash lookup takes.
 *
 * The arrays may start with room for the keys a point is expected to end with (`toPl` passes
 * the most keys the batch's previous point held): a point's twenty keys pushed into empty
 * arrays cost arrays of 17 then 41 slots, garbage and a retained tail that, with a thousand
 * points a batch, went from a decode worker's small young generation to its old one.
 *
 * Invariants: the entries are the first `n` slots of both arrays, in order; slots past `n`
 * hold no key (holes, or cleared by a delete). `lengths` has the bit (length mod 32) of every
 * key present; deletes leave bits set (a superset only costs a scan).
 */
export class KeyMap<V> {
  private readonly ks: string[]
  private readonly vs: V[]
  /** Entries in use: slots past it are free room (holes, or cleared by a delete). */
  private n = 0
  /** The most entries held at once: the room a similar map will want (keys set, then deleted). */
  private most = 0
  private lengths = 0

  /** `room`: slots to allocate at once, so keys added up to it copy no array. */
  constructor(room = 0) {
    // Always `new Array`: one elements kind for every map, whatever its room.
    this.ks = new Array<string>(room)
    this.vs = new Array<V>(room)
  }

  get size(): number {
    return this.n
  }

  /** The most entries this map held at once. */
  get peak(): number {
    return this.most
  }

  /** The key at a position, 0 to size - 1 in order (walks without a closure per entry). */
  keyAt(i: number): string {
    return this.ks[i]
  }

  valueAt(i: number): V {
    return this.vs[i]
  }

  private find(key: string): number {
    if (!(this.lengths & (1 << (key.length & 31)))) return -1
    const ks = this.ks
    for (let i = 0; i < this.n; i++) if (ks[i] === key) return i
    return -1
  }

  get(key: string): V | undefined {
    const i = this.find(key)
    return i < 0 ? undefined : this.vs[i]
  }

  has(key: string): boolean {
    return this.find(key) >= 0
  }

  set(key: string, value: V): this {
    const i = this.find(key)
    if (i >= 0) {
      this.vs[i] = value
      return this
    }
    this.ks[this.n] = key
    this.vs[this.n] = value
    if (++this.n > this.most) this.most = this.n
    this.lengths |= 1 << (key.length & 31)
    return this
  }

  delete(key: string): boolean {
    const i = this.find(key)
    if (i < 0) return false
    // Shift the later entries down by hand: splice allocates the array of removed items.
    const ks = this.ks
    const vs = this.vs
    const last = --this.n
    for (let j = i; j < last; j++) {
      ks[j] = ks[j + 1]
      vs[j] = vs[j + 1]
    }
    // The freed slot keeps no reference (the value may be large).
    ks[last] = undefined as unknown as string
    vs[last] = undefined as V
    return true
  }

  forEach(fn: (value: V, key: string) => void): void {
    const ks = this.ks
    const vs = this.vs
    for (let i = 0; i < this.n; i++) fn(vs[i], ks[i])
  }

  /** [key, value] pairs in order, as a Map's iterator gives them (debugging and tests). */
  *[Symbol.iterator](): IterableIterator<[string, V]> {
    for (let i = 0; i < this.n; i++) yield [this.ks[i], this.vs[i]]
  }

  /** The keys in order, as a copy (the caller may change the map while walking them). */
  keys(): string[] {
    return this.ks.slice(0, this.n)
  }
}
