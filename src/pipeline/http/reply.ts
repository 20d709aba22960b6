/**
 * The shared-memory reply of one http_request call, written by the helper thread and read by
 * the waiting decode worker. Layout (Int32 words): [0] state (0 pending, 1 done), [1] HTTP
 * status or -1 for an error, [2] byte length; then the body (or the error text) from byte 12.
 *
 * Invariant: one buffer per call, so a helper finishing a call its caller gave up on writes
 * into memory nobody reads again.
 */
export const HEADER_BYTES = 12

export interface HttpCall {
  method: string
  url: string
  headers: Record<string, string>
  body: string
  timeoutMs: number
  maxBytes: number
  allowInternal: boolean
  reply: SharedArrayBuffer
}

export function newReply(maxBytes: number): SharedArrayBuffer {
  // Room for the body, or for an error text when the cap is tiny.
  return new SharedArrayBuffer(HEADER_BYTES + Math.max(maxBytes, 1024))
}

export function writeReply(reply: SharedArrayBuffer, status: number, bytes: Uint8Array): void {
  const words = new Int32Array(reply, 0, 3)
  const room = reply.byteLength - HEADER_BYTES
  const n = Math.min(bytes.byteLength, room)
  new Uint8Array(reply, HEADER_BYTES, n).set(bytes.subarray(0, n))
  words[1] = status
  words[2] = n
  Atomics.store(words, 0, 1)
  Atomics.notify(words, 0)
}

/** Waits up to `ms` for the reply; null when none came. */
export function awaitReply(reply: SharedArrayBuffer, ms: number) {
  const words = new Int32Array(reply, 0, 3)
  if (Atomics.wait(words, 0, 0, ms) === 'timed-out' && Atomics.load(words, 0) === 0) return null
  const text = Buffer.from(new Uint8Array(reply, HEADER_BYTES, words[2])).toString('utf8')
  return { status: words[1] as number, text }
}
