/**
 * A bounded pool of reusable buffers for the write path's large, short-lived bytes: request
 * bodies (http/body.ts), the encoded payloads made from them (shared/payload-room.ts, handed
 * back once the disk buffer has committed them, ingest/accept.ts) and the windows the uploader
 * reads back (buffer/disk/read.ts). Without it a steady write load allocates, and leaves for V8
 * to collect, about three fresh buffers of the body's size per request: V8 frees an ArrayBuffer
 * only when its JS object is collected, which for one that outlives a scavenge means a full
 * collection after tens of MB of growth, and glibc maps each buffer past its mmap threshold
 * afresh, a page fault for every 4 KiB the buffer is written.
 *
 * Invariants:
 * - a buffer is either idle here or lent out, never both: `take` removes it, and `give` takes
 *   only a buffer no one else can see (a decode worker transfers it back only when no part of
 *   its result views it, `ingest/worker-result.ts`; the views on this thread were detached
 *   when it was transferred out; a payload comes back only after its commit, and a read window
 *   only after its last upload was compressed);
 * - a lent buffer's bytes past what its taker asked for are never read: `take(n)` gives a view
 *   of exactly `n` bytes, and whoever fills it either fills all of it or copies what it filled;
 * - buffers come in size classes (powers of two and 1.5 times them, at least 16 KiB), so a
 *   returned buffer fits the next request of about the same size, with at most a third unused;
 * - idle buffers hold at most `maxBytes` in all: one given back past that is left to the
 *   garbage collector (counted `dropped`); a request that finds no idle buffer of its class gets
 *   a fresh one (counted `allocated`), so the pool never refuses or delays anything;
 * - a buffer larger than a quarter of `maxBytes` is never pooled (a fresh buffer of its size);
 *   `maxBytes` 0 turns the pool off;
 * - lent buffers are bounded by what bounds their users: bodies and their payloads by
 *   `max_body_bytes_in_flight` (counted in declared bytes: a buffer is at most a third larger
 *   than what it holds), read windows by the uploader's window size per upstream.
 */

const MIN_CLASS = 16 * 1024

/** The size class of an `n`-byte body: the smallest 2^k or 1.5 * 2^k that holds it. */
export function sizeClass(n: number): number {
  if (n <= MIN_CLASS) return MIN_CLASS
  const pow = 2 ** Math.ceil(Math.log2(n))
  const mid = (pow / 4) * 3
  return n <= mid ? mid : pow
}

function isClass(bytes: number): boolean {
  return bytes >= MIN_CLASS && sizeClass(bytes) === bytes
}

export interface BufferPoolStats {
  /** Takes served by an idle buffer. */
  reused: number
  /** Takes that found no idle buffer of their class (a fresh one was allocated). */
  allocated: number
  /** Buffers given back while the pool was full (left to the garbage collector). */
  dropped: number
}

export class BufferPool {
  private readonly idle = new Map<number, ArrayBuffer[]>()
  private idleBytes = 0
  readonly stats: BufferPoolStats = { reused: 0, allocated: 0, dropped: 0 }

  constructor(readonly maxBytes: number) {}

  /** Bytes held by idle buffers. */
  get bytes(): number {
    return this.idleBytes
  }

  /** Whether `n` bytes are held in a pooled buffer. */
  pools(n: number): boolean {
    return n > 0 && sizeClass(n) <= this.maxBytes / 4
  }

  /**
   * An idle buffer of the class of `n` bytes, or null when there is none: never allocates
   * (a decode task takes one for its worker's output only when one is waiting here).
   */
  takeIdle(n: number): ArrayBuffer | null {
    if (!this.pools(n)) return null
    const size = sizeClass(n)
    const buffer = this.idle.get(size)?.pop()
    if (!buffer) return null
    this.idleBytes -= size
    this.stats.reused++
    return buffer
  }

  /** A view of `n` bytes at the start of its own ArrayBuffer (so it can be transferred). */
  take(n: number): Uint8Array {
    if (!this.pools(n)) return new Uint8Array(n)
    const idle = this.takeIdle(n)
    if (idle) return new Uint8Array(idle, 0, n)
    this.stats.allocated++
    return new Uint8Array(new ArrayBuffer(sizeClass(n)), 0, n)
  }

  /**
   * Takes back a buffer whose every earlier view is gone. One that is not of a size class (a
   * body read without the pool), detached or shared is ignored; past `maxBytes` it is dropped.
   */
  give(buffer: ArrayBuffer): void {
    const size = buffer.byteLength
    if (!(buffer instanceof ArrayBuffer) || !isClass(size) || size > this.maxBytes / 4) return
    if (this.idleBytes + size > this.maxBytes) {
      this.stats.dropped++
      return
    }
    let list = this.idle.get(size)
    if (!list) this.idle.set(size, (list = []))
    list.push(buffer)
    this.idleBytes += size
  }
}
