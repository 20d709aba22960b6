/**
 * Chooses the parser by Content-Type (spec 4.1) and turns parser failures into coded errors.
 * JSON sent as `text/plain` (the browser SDK's JSON mode does this) is recognised by its
 * leading `[` and parsed as JSON when it parses; otherwise the body is line protocol.
 */
import { FerryError } from '../errors.js'
import type { Point } from '../shared/point.js'
import { decodeJson, JsonPointError } from './codec/json-decode.js'
import { PbError } from './codec/pb-reader.js'
import { decodePoints } from './codec/protobuf-decode.js'
import { parseLines, type LpResult } from './lp/parse.js'
import { goQuote } from './quote.js'

export type BodyFormat = 'lp' | 'json' | 'protobuf'

export function formatOf(contentType: string): BodyFormat {
  const ct = contentType.toLowerCase()
  if (ct.includes('application/json') || ct.startsWith('application/pbjson')) return 'json'
  if (ct.startsWith('application/protobuf') || ct.startsWith('application/x-protobuf'))
    return 'protobuf'
  return 'lp'
}

function lpError(r: LpResult, body: Uint8Array): FerryError {
  const lines = r.bad.map((b) => `unable to parse '${b.line}'(pos: ${b.pos}): ${b.reason}`)
  if (r.failed > r.bad.length) lines.push(`... and ${r.failed - r.bad.length} more bad lines`)
  const summary = `with ${r.points.length} point parse ok, ${r.failed} points failed`
  const message = `invalid lineprotocol: ${lines.join('\n')}\n${summary}. Origin data: ${goQuote(body)}`
  return new FerryError('invalidLinePoint', message)
}

/** Only bodies sent as text/plain or without a type are sniffed; other types mean what they say. */
function looksLikeJson(contentType: string, text: string): boolean {
  const ct = contentType.toLowerCase()
  if (ct !== '' && !ct.startsWith('text/plain')) return false
  const t = text.trimStart()
  return t.startsWith('[') && text.trimEnd().endsWith(']')
}

function parseJson(text: string): Point[] {
  try {
    return decodeJson(text)
  } catch (e) {
    if (e instanceof JsonPointError) throw new FerryError('invalidJsonPoint', e.message)
    throw e
  }
}

export interface Parsed {
  points: Point[]
  format: BodyFormat
}

export function parseBody(contentType: string, body: Uint8Array): Parsed {
  const format = formatOf(contentType)
  if (format === 'protobuf') {
    try {
      return { points: decodePoints(body), format }
    } catch (e) {
      if (e instanceof PbError)
        throw new FerryError('invalidProtobufPoint', `invalid protobuf body: ${e.message}`)
      throw e
    }
  }
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')
  if (format === 'json') return { points: parseJson(text), format }
  if (looksLikeJson(contentType, text)) {
    try {
      return { points: decodeJson(text), format: 'json' }
    } catch {
      // Not JSON after all: parse as line protocol and report line protocol errors.
    }
  }
  const r = parseLines(text, body)
  if (r.failed > 0) throw lpError(r, body)
  return { points: r.points, format }
}
