/**
 * One upload body to column batches: decompress (bounded), parse by Content-Type, stamp
 * points without a time, group into tables. Runs in a decode worker or inline; failures come
 * back as error payloads, since error classes do not cross threads.
 */
import { FerryError, toPayload, type ErrorPayload } from '../../errors.js'
import { decompress } from '../../decode/decompress.js'
import { formatOf, parseBody } from '../../decode/parse-body.js'
import type { Category } from '../../shared/category.js'
import { toColumns, type TableBatch } from './columns.js'
import { fingerprintOf } from './fingerprint.js'
import { pbToColumns } from './pb-columns.js'

export interface UploadTask {
  body: Uint8Array
  category: Category
  contentType: string
  encoding: string
  maxBytes: number
  /** Receive time in ns, for points without a timestamp. */
  now: bigint
}

export interface DecodedUpload {
  ok: true
  points: number
  tables: TableBatch[]
  /** The decompressed body's fingerprint (fingerprint.ts). */
  fingerprint: string
  /** Every point carried its own time, so a re-send of the body holds the same points. */
  timed: boolean
}

export type UploadResult = DecodedUpload | { ok: false; error: ErrorPayload }

export function decodeUpload(task: UploadTask): UploadResult {
  try {
    const body = decompress(task.encoding, task.body, task.maxBytes)
    if (body.length === 0) throw new FerryError('emptyBody', 'the body is empty')
    const fingerprint = fingerprintOf(body)
    if (formatOf(task.contentType) === 'protobuf') {
      const fast = pbToColumns(task.category, body, task.now)
      if (fast) return { ok: true, fingerprint, ...fast }
    }
    const { points } = parseBody(task.contentType, body)
    let timed = true
    for (const p of points) if (p.time === null) [p.time, timed] = [task.now, false]
    const tables = toColumns(task.category, points)
    return { ok: true, points: points.length, tables, fingerprint, timed }
  } catch (e) {
    if (e instanceof FerryError) return { ok: false, error: toPayload(e) }
    const msg = `cannot decode the body: ${(e as Error).message}`
    return { ok: false, error: { code: 'decodeBodyFailed', message: msg } }
  }
}
