/**
 * Reads a request body into one fresh Uint8Array (its own ArrayBuffer, so it can be transferred
 * to a worker), refusing with 413 as soon as more than `limit` bytes arrive.
 */
import type { IncomingMessage } from 'node:http'
import { FerryError } from '../errors.js'

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

/** Node request (socket path) or a web Request (app.request() in tests). */
export async function readBody(
  incoming: IncomingMessage | undefined,
  req: Request,
  limit: number,
): Promise<Uint8Array> {
  const declared = Number(req.headers.get('content-length') ?? NaN)
  if (declared > limit) throw tooLarge(limit)
  if (incoming) return readStream(incoming, limit)
  if (!req.body) return new Uint8Array(0)
  return readStream(req.body as unknown as AsyncIterable<Uint8Array>, limit)
}
