/**
 * Room before a payload: a transcoded payload (PBPoints bytes) is made as a view that starts
 * `PAYLOAD_ROOM` bytes into a buffer of its own, the bytes before it unused. The disk buffer
 * writes its record header there (buffer/disk/record.ts), so a record is the payload's own
 * memory instead of a copy of it: per 1000-point write one 376 KB allocation and copy fewer on
 * the HTTP thread, and fewer dead buffers for its garbage collector.
 *
 * Where that buffer comes from is the thread's choice (`payloadBuffers`): the HTTP thread takes
 * it from its buffer pool (shared/buffer-pool.ts), to which committed payloads return; a decode
 * worker uses the spare its task brought when it fits (ingest/spare-output.ts). Either way the
 * buffer may be longer than room and payload (a size class); the bytes past the payload are
 * never part of it.
 *
 * Invariants:
 * - whoever says a payload has room (`payloadRoom`) made its buffer for it alone; the room is
 *   written only by the buffer, once, before the record is committed;
 * - `ownsRoom` is true only of a payload `withRoom` made on this thread, so a view into any
 *   other memory (a scratch buffer, a body) is never taken for one that may be moved or reused.
 */

/** Enough for a record header with an input name and storage index of 90 bytes together. */
export const PAYLOAD_ROOM = 128

/** Gives an ArrayBuffer of at least `n` bytes that no one else uses. */
export type BufferSource = (n: number) => ArrayBuffer

const exact: BufferSource = (n) => new ArrayBuffer(n)
let source: BufferSource = exact
/**
 * The payloads `withRoom` made on this thread: the views themselves, not their buffers, since a
 * pooled buffer later holds other bytes (weakly: a collected view leaves by itself).
 */
const made = new WeakSet<Uint8Array>()

/** Where this thread's payload buffers come from from now on; null: a fresh exact one each. */
export function payloadBuffers(next: BufferSource | null): void {
  source = next ?? exact
}

/** `bytes[0, length)` copied after `PAYLOAD_ROOM` free bytes in a buffer of its own; its view. */
export function withRoom(bytes: Uint8Array, length: number): Uint8Array {
  const out = new Uint8Array(source(PAYLOAD_ROOM + length), PAYLOAD_ROOM, length)
  out.set(bytes.subarray(0, length))
  made.add(out)
  return out
}

/** Whether `p` is a payload `withRoom` made on this thread, starting `room` bytes in. */
export function ownsRoom(p: Uint8Array, room: number): boolean {
  return room === PAYLOAD_ROOM && made.has(p)
}
