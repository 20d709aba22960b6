/**
 * A set of span ids given as byte ranges of the request body, for `span_type` (is a span's
 * parent in the request, has a span children in it) without a hex string per id. Ids are equal
 * when their bytes are, and every empty id is the same id (the mapping's `"0"`).
 *
 * Bounds: open addressing in a table of at least twice the ids (a power of two), reused from
 * request to request; ids hash by FNV-1a over their bytes.
 */
export class IdSet {
  private slots = new Int32Array(256)
  private a = new Int32Array(128)
  private e = new Int32Array(128)
  private n = 0
  private mask = 255
  private body: Uint8Array = new Uint8Array(0)

  /** Empties the set for up to `count` ids of `body`. */
  reset(body: Uint8Array, count: number): void {
    let size = 256
    while (size < count * 2) size *= 2
    if (this.slots.length !== size) this.slots = new Int32Array(size)
    else this.slots.fill(0)
    if (this.a.length < count) {
      this.a = new Int32Array(count)
      this.e = new Int32Array(count)
    }
    this.mask = size - 1
    this.n = 0
    this.body = body
  }

  private hash(a: number, e: number): number {
    let h = 0x811c9dc5
    const b = this.body
    for (let i = a; i < e; i++) h = Math.imul(h ^ b[i], 0x01000193)
    return h >>> 0
  }

  private same(x: number, a: number, e: number): boolean {
    const xa = this.a[x]
    if (this.e[x] - xa !== e - a) return false
    const b = this.body
    for (let i = 0; i < e - a; i++) if (b[xa + i] !== b[a + i]) return false
    return true
  }

  /** The slot holding the id, or the empty slot where it would go (as a negative index - 1). */
  private find(a: number, e: number): number {
    let s = this.hash(a, e) & this.mask
    for (;;) {
      const x = this.slots[s]
      if (x === 0) return -s - 1
      if (this.same(x - 1, a, e)) return s
      s = (s + 1) & this.mask
    }
  }

  add(a: number, e: number): void {
    const s = this.find(a, e)
    if (s >= 0) return
    const x = this.n++
    this.a[x] = a
    this.e[x] = e
    this.slots[-s - 1] = x + 1
  }

  has(a: number, e: number): boolean {
    return this.find(a, e) >= 0
  }
}
