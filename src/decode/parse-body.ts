/**
 * Chooses the parser by Content-Type (spec 4.1) and turns parser failures into coded errors.
 * JSON sent as `text/plain` (the browser SDK's JSON mode does this) is recognised by its
 * leading `[` and parsed as JSON when it parses; otherwise the body is line protocol.
 */
import { FerryError } from '../errors.js'
import type { Point } from '../shared/point.js'
import { countJsonElements } from './codec/json-count.js'
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

export function tooMany(max: number): FerryError {
  return new FerryError(
    'tooManyPoints',
    `the body holds more than ${max} points ([http_api] max_points_per_request); send them in several writes`,
  )
}

/** JSON arrays are counted before they are parsed (JSON.parse would build every element). */
function jsonPoints(text: string, max: number, strictJson: boolean): Point[] | null {
  if (countJsonElements(text, max) > max) throw tooMany(max)
  if (strictJson) return parseJson(text)
  try {
    return decodeJson(text)
  } catch {
    return null // not JSON after all: the caller parses line protocol
  }
}

/** Parsers stop at `maxPoints + 1` points; a body holding more is refused with 413. */
export function parseBody(contentType: string, body: Uint8Array, maxPoints = Infinity): Parsed {
  const parsed = parseAll(contentType, body, maxPoints)
  if (parsed.points.length > maxPoints) throw tooMany(maxPoints)
  return parsed
}

function parseAll(contentType: string, body: Uint8Array, maxPoints: number): Parsed {
  const format = formatOf(contentType)
  if (format === 'protobuf') {
    try {
      return { points: decodePoints(body, maxPoints), format }
    } catch (e) {
      if (e instanceof PbError)
        throw new FerryError('invalidProtobufPoint', `invalid protobuf body: ${e.message}`)
      throw e
    }
  }
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')
  if (format === 'json') return { points: jsonPoints(text, maxPoints, true)!, format }
  if (looksLikeJson(contentType, text)) {
    const points = jsonPoints(text, maxPoints, false)
    if (points) return { points, format: 'json' }
  }
  const r = parseLines(text, body, undefined, maxPoints)
  if (r.points.length > maxPoints) throw tooMany(maxPoints)
  if (r.failed > 0) throw lpError(r, body)
  return { points: r.points, format }
}
