/**
 * What a decode worker does to a write's result before it leaves the thread, so that the HTTP
 * thread does less with it:
 * - the payload's CRC-32 is computed here, where the bytes are; the buffer combines it with its
 *   record header's (buffer/disk/record.ts) instead of reading the payload again;
 * - the payload is moved (its ArrayBuffer transferred), not cloned, when its buffer is its
 *   own: made for it by `withRoom` on this thread (shared/payload-room.ts), or all of it the
 *   payload's. The HTTP thread then takes about 1 KB a point without a copy or an allocation.
 *   A payload that is a view into shared or larger memory is cloned as before, since moving it
 *   would detach memory something else on this thread still uses;
 * - the task's spare output buffer (ingest/spare-output.ts), when the payload did not take it,
 *   goes back too (`spareOut`), for the HTTP thread's buffer pool;
 * - the task's body buffer goes back with the result (`spareBody`, for the HTTP thread's buffer
 *   pool, shared/buffer-pool.ts) only when nothing in the result can view it: a failure (its error
 *   is text), or a success whose payload is another buffer and which carries no pipeline
 *   aggregations, source map or CDN records (objects that could hold views of the body). Moving
 *   it detaches every view this thread kept, so a reused buffer can never change a result.
 */
import zlib from 'node:zlib'
import { move, transferableSymbol, valueSymbol } from 'piscina'
import { ownsRoom } from '../shared/payload-room.js'
import type { DecodeResult } from './protocol.js'

/** Buffers handed back for reuse (`ingest/pool.ts` takes them off the result). */
export interface SpareBody {
  spareBody?: ArrayBuffer
  spareOut?: ArrayBuffer
}

function ownsItsBuffer(p: Uint8Array, room: number): boolean {
  if (room > 0) return ownsRoom(p, room)
  return (
    p.buffer instanceof ArrayBuffer && p.byteOffset === 0 && p.byteLength === p.buffer.byteLength
  )
}

/** The body's buffer when nothing in `r` can be a view of it; null otherwise. */
function returnable(r: DecodeResult, body: Uint8Array | undefined): ArrayBuffer | null {
  const buffer = body?.buffer
  if (!(buffer instanceof ArrayBuffer) || buffer.byteLength === 0) return null
  if (!r.ok) return buffer
  if (r.payload.buffer === buffer || r.agg || r.sourcemaps || r.cdn) return null
  return buffer
}

/** The result as it leaves the worker (Piscina posts a moved value with its transfer list). */
export function leaving<R extends DecodeResult>(
  r: R,
  body?: Uint8Array,
  spareOut?: ArrayBuffer | null,
): R & SpareBody {
  const out: R & SpareBody = r
  const transfer: ArrayBuffer[] = []
  if (r.ok && r.points > 0) {
    r.payloadCrc = zlib.crc32(r.payload)
    if (ownsItsBuffer(r.payload, r.payloadRoom ?? 0)) transfer.push(r.payload.buffer as ArrayBuffer)
    // A cloned payload is a copy without its room.
    else r.payloadRoom = 0
  }
  const spare = returnable(r, body)
  if (spare) {
    out.spareBody = spare
    transfer.push(spare)
  }
  if (spareOut) {
    out.spareOut = spareOut
    transfer.push(spareOut)
  }
  if (!transfer.length) return out
  return move({
    get [transferableSymbol]() {
      return transfer
    },
    get [valueSymbol]() {
      return out
    },
  } as never) as unknown as R & SpareBody
}
