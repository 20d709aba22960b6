/**
 * Buffers for decode workers' payloads, handed round instead of made fresh per write. A
 * committed payload's buffer goes back to the HTTP thread's buffer pool (ingest/accept.ts); the
 * next task posted to a worker takes one from there of the size its payload will likely need
 * (`SpareOutputs`), and the worker writes its payload into it when it fits (`spareSource`).
 * A spare the worker did not use travels back with the result and returns to the pool.
 *
 * Invariants:
 * - a spare is the worker's alone from the post until the result: it is transferred both ways,
 *   and on the worker `withRoom` takes it at most once (one task runs at a time per worker);
 * - a spare is used only when it holds the payload and is at most twice its size class, so a
 *   large spare never carries a small payload round the system;
 * - the estimate only chooses which idle buffer travels: a wrong guess costs a fresh buffer
 *   in the worker (as before the pool), never a wrong payload.
 */
import type { Component } from '../component.js'
import { PAYLOAD_ROOM, payloadBuffers, type BufferSource } from '../shared/payload-room.js'
import { sizeClass, type BufferPool } from '../shared/buffer-pool.js'

let spare: ArrayBuffer | null = null

/** Worker side: the spare the current task brought (null: none). */
export function offerSpare(buffer: ArrayBuffer | null): void {
  spare = buffer
}

/** Worker side: the current task's spare if its payload did not take it, to send back. */
export function unusedSpare(): ArrayBuffer | null {
  const left = spare
  spare = null
  return left
}

/** Worker side: the payload buffer source (shared/payload-room.ts). */
export const spareSource: BufferSource = (n) => {
  const s = spare
  const size = sizeClass(n)
  if (s && s.byteLength >= n && s.byteLength <= 2 * size) {
    spare = null
    return s
  }
  return new ArrayBuffer(size)
}

/** Payload bytes per body byte, by the body's encoding; first guesses until a result says. */
const FIRST_GUESS = { plain: 1.2, compressed: 9 }
const kindOf = (encoding: string) => (encoding === '' ? 'plain' : 'compressed')

/** HTTP thread side: which idle buffer goes with a task, learnt from earlier results. */
export class SpareOutputs {
  private readonly ratio = { ...FIRST_GUESS }

  constructor(private readonly pool: BufferPool | undefined) {}

  /** An idle buffer for the payload of a body of `bytes` bytes, or null. */
  take(bytes: number, encoding: string): ArrayBuffer | null {
    if (!this.pool || bytes === 0) return null
    const guess = bytes * this.ratio[kindOf(encoding)]
    return this.pool.takeIdle(PAYLOAD_ROOM + Math.ceil(guess))
  }

  /** Learns from a result: its payload's size over its body's. */
  learn(bytes: number, encoding: string, payloadBytes: number): void {
    if (bytes > 0 && payloadBytes > 0) this.ratio[kindOf(encoding)] = payloadBytes / bytes
  }

  /** A spare that came back unused. */
  giveBack(buffer: ArrayBuffer | undefined): void {
    if (buffer) this.pool?.give(buffer)
  }
}

/**
 * HTTP thread side: while started, payloads made on this thread (small bodies transcoded in
 * place, ingest/inline-first.ts) take their buffers from `pool`, which committed ones return to.
 */
export function poolPayloads(pool: BufferPool): Component {
  return {
    name: 'payload-buffers',
    start: async () => payloadBuffers((n) => pool.take(n).buffer as ArrayBuffer),
    shutdown: async () => payloadBuffers(null),
  }
}
