/**
 * Reads a request body into one Uint8Array at the start of its own ArrayBuffer (so it can be
 * transferred to a worker), refusing with 413 as soon as more than `limit` bytes arrive. With a
 * pool, a body of declared length is read into a reused buffer (body-pool.ts).
 */
import type { IncomingMessage } from 'node:http'
import { FerryError } from '../errors.js'
import type { BufferPool } from '../shared/buffer-pool.js'

function tooLarge(limit: number): FerryError {
  return new FerryError('bodyTooLarge', `request body exceeds the limit of ${limit} bytes`)
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total)
  let off = 0
  for (const c of chunks) {
    out.set(c, off)
    off += c.length
  }
  return out
}

async function readStream(stream: AsyncIterable<Uint8Array>, limit: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = []
  let total = 0
  for await (const chunk of stream) {
    total += chunk.length
    if (total > limit) throw tooLarge(limit)
    chunks.push(chunk)
  }
  return concat(chunks, total)
}

/** Collects what is left of a stream after `chunks`, within the limit. */
async function readRest(
  it: AsyncIterator<Uint8Array>,
  chunks: Uint8Array[],
  limit: number,
): Promise<Uint8Array> {
  let total = chunks.reduce((n, c) => n + c.length, 0)
  if (total > limit) throw tooLarge(limit)
  for (let r = await it.next(); !r.done; r = await it.next()) {
    total += r.value.length
    if (total > limit) throw tooLarge(limit)
    chunks.push(r.value)
  }
  return concat(chunks, total)
}

/**
 * With a declared length the bytes go straight into one buffer of that size, so a 64 MiB body
 * costs 64 MiB, not chunks plus their copy (large allocations are mapped lazily: pages count
 * only once written). A stream longer than it declared falls back to collecting chunks.
 */
async function readDeclared(
  stream: AsyncIterable<Uint8Array>,
  declared: number,
  limit: number,
  pool: BufferPool | null,
): Promise<Uint8Array> {
  const out = pool ? pool.take(declared) : new Uint8Array(declared)
  let off = 0
  const it = stream[Symbol.asyncIterator]()
  for (let r = await it.next(); !r.done; r = await it.next()) {
    const chunk = r.value
    if (off + chunk.length > declared) return readRest(it, [out.subarray(0, off), chunk], limit)
    out.set(chunk, off)
    off += chunk.length
  }
  return off === declared ? out : out.slice(0, off)
}

/**
 * Node request (socket path) or a web Request (app.request() in tests). A buffer from `pool` that
 * is not all filled (a short or long stream) is copied out, so the answer's bytes never include
 * an earlier body's.
 */
export async function readBody(
  incoming: IncomingMessage | undefined,
  req: Request,
  limit: number,
  pool: BufferPool | null = null,
): Promise<Uint8Array> {
  const declared = Number(req.headers.get('content-length') ?? NaN)
  if (declared > limit) throw tooLarge(limit)
  const stream = incoming ?? (req.body as unknown as AsyncIterable<Uint8Array> | null)
  if (!stream) return new Uint8Array(0)
  if (Number.isSafeInteger(declared) && declared > 0)
    return readDeclared(stream, declared, limit, pool)
  return readStream(stream, limit)
}
