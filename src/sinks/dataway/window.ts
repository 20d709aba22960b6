/**
 * Plans the uploader's windows: the records one loop delivers next.
 *
 * Invariants:
 * - A window whose plan was committed before a crash is read again exactly as planned, so it is
 *   cut into the same bodies (and the same X-Pkg-Ids) as before.
 * - A new window's plan is committed before anything of it is sent.
 */
import type { ReadBuffer } from '../../buffer/buffer.js'
import type { Category } from '../../shared/category.js'
import type { UploaderOptions, Window } from './upload-types.js'
import type { Upstream } from './upstream.js'

/** The reader name of one loop: its cursor and plan are kept under it in the buffer. */
export function readerName(up: Upstream, c: Category): string {
  return `${up.id}:${c}`
}

/**
 * The records to deliver next. A window whose plan was committed before a crash is read again
 * exactly as planned, so it is cut into the same bodies; a new window's plan is committed
 * before anything of it is sent.
 */
export async function nextWindow(
  buffer: ReadBuffer,
  opts: UploaderOptions,
  reader: string,
  c: Category,
  cursor: number,
): Promise<Window | null> {
  const plan = buffer.getPlan(reader)
  if (plan && plan.end > cursor) {
    const batches = buffer.read(c, cursor, 0, plan.end)
    return { ...plan, batches }
  }
  const next = newWindow(buffer, opts, reader, c, cursor)
  await next?.planned
  return next?.window ?? null
}

/** Reads a new window after `cursor` and starts committing its plan (null when none). */
export function newWindow(
  buffer: ReadBuffer,
  opts: UploaderOptions,
  reader: string,
  c: Category,
  cursor: number,
) {
  const maxRaw = opts.maxRawBodySize
  const batches = buffer.read(c, cursor, maxRaw * opts.concurrency * 2)
  if (!batches.length) return null
  const end = batches[batches.length - 1].seq
  const keys = opts.sinkKeys?.() ?? []
  const plan = keys.length ? { end, maxRaw, sinkKeys: keys } : { end, maxRaw }
  return { window: { ...plan, batches }, planned: buffer.setPlan(reader, plan) }
}
