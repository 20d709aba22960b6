/**
 * Accepting points, for every way they arrive (a write, a lasterror report): decode in a worker
 * (checks, corrections, tags, pipeline), then hand the batch to the buffer. The caller answers
 * 200 only after this resolves, so an acknowledged point is as safe as the buffer makes it.
 * Once the buffer holds it, a payload made in a buffer of its own (`payloadRoom`) that no tap
 * was given goes back to the buffer pool: nothing can see it any more (buffer.ts: a buffer
 * keeps nothing of a payload once `push` settles; the routes read only counts off the result).
 */
import type { WriteBuffer } from '../buffer/buffer.js'
import type { BufferPool } from '../shared/buffer-pool.js'
import { FerryError } from '../errors.js'
import type { ScriptStat } from '../pipeline/apply.js'
import type { AggOp } from '../pipeline/agg/ops.js'
import type { IoSettings } from './io.js'
import type { DecodeOk, DecodeTask, Decoder } from './protocol.js'
import type { TapHub } from './tap.js'

export interface AcceptDeps {
  decoder: Decoder
  buffer: WriteBuffer
  /** Told of every script that ran. */
  scriptRan?: (category: string, s: ScriptStat) => void
  /** Watchers of accepted points (`ferry tap`); costs one read when none is attached. */
  tap?: TapHub | null
  /** `[io]` and the upstream's clock; absent: local clock, no filters, no correction. */
  io?: IoSettings
  /** Takes the scripts' agg_create/agg_metric operations (the pipeline's buckets). */
  aggregate?: (ops: AggOp[]) => void
  /** Takes back committed payloads' buffers for reuse; absent: they are left to the GC. */
  buffers?: BufferPool
}

/** The task as `[io]` says: stamped by the upstream's clock, with its IO instructions. */
function withIo(task: DecodeTask, io: IoSettings | undefined): DecodeTask {
  if (!io) return task
  const offset = io.clockOffsetMs()
  const ioTask = io.task(task.category)
  if (!offset && !ioTask) return task
  return { ...task, now: task.now + BigInt(offset) * 1_000_000n, io: ioTask }
}

export interface AcceptOptions {
  /** Data source name kept with the batch (`input` of the write API). */
  input: string
  /** Check and echo only: nothing is kept. */
  dry?: boolean
  storageIndex?: string
  /** True once the request was answered otherwise (timed out): then nothing may be kept. */
  abandoned?: () => boolean
}

export async function accept(d: AcceptDeps, task: DecodeTask, o: AcceptOptions): Promise<DecodeOk> {
  const out = await d.decoder.decode(withIo(task, d.io))
  for (const s of out.pipeline) d.scriptRan?.(task.category, s)
  if (out.filtered && !o.dry) d.io?.events.pointsFiltered(task.category, out.filtered)
  if (out.retimed && !o.dry) d.io?.events.pointsRetimed(task.category, out.retimed)
  // Answered 408 already: keep nothing, so that the client's retry is not a duplicate.
  if (o.abandoned?.()) throw new FerryError('requestTimeout', 'timed out before storing')
  if (!o.dry && out.points > 0)
    await d.buffer.push({
      category: task.category,
      payload: out.payload,
      ...(out.payloadCrc === undefined ? {} : { payloadCrc: out.payloadCrc }),
      ...(out.payloadRoom ? { payloadRoom: out.payloadRoom } : {}),
      points: out.points,
      input: o.input,
      storageIndex: o.storageIndex,
      receivedAt: Date.now(),
    })
  // After the push: a write that failed is retried by its client, and must not count twice.
  if (out.agg && !o.dry) d.aggregate?.(out.agg)
  const tapped = !o.dry && out.points > 0 && d.tap?.active === true
  if (tapped) d.tap!.offer({ category: task.category, payload: out.payload, points: out.points })
  else if (out.payloadRoom) d.buffers?.give(out.payload.buffer as ArrayBuffer)
  return out
}
