/**
 * The trace transcoder: an OTLP/protobuf ExportTraceServiceRequest straight to the PBPoints
 * upload bytes, without the general path's objects (no Span, no Point, no string per key or
 * value). It scans the body into reused tables (pb-span-scan.ts), maps each span to its keys
 * in a reused table (span-map.ts) and writes them into a reused output buffer (span-write.ts).
 *
 * Invariants:
 * - The result is byte for byte what the general path (`decodeOtlp`, times, checks, global
 *   tags, encode) gives for the same task, with the same stats; a property test holds the two
 *   together on random exports.
 * - Where it could differ it returns null and the caller takes the general path: options it
 *   does not apply (customer_tags, split_service_name, [otlp] tags, sampling below 1,
 *   close_resource), a body it does not read (pb-span-scan.ts), text it would have to convert
 *   or correct (span-text.ts), attributes past max_attributes, a start past int64, more spans
 *   than allowed or none.
 */
import { Out } from '../lp/fast-writer.js'
import { PbWriter } from '../codec/pb-writer.js'
import { writeTag } from '../codec/protobuf.js'
import type { OtlpOptions } from './options.js'
import { newStats, type MapStats } from './stats.js'
import { scanTraces } from './pb-span-scan.js'
import { DECLINE } from './pb-span-wire.js'
import { SpanMapper, type SpanTask } from './span-map.js'
import { SpanTable } from './span-table.js'
import { tagString } from './span-text.js'
import { writeSpan, type GlobalTags } from './span-write.js'
import { PAYLOAD_ROOM, withRoom } from '../../shared/payload-room.js'

export interface TraceTranscodeInput {
  body: Uint8Array
  options: OtlpOptions
  /** Receive time in ns, the time of a span without a start. */
  now: bigint
  /** Global tags, added where the point lacks the key. */
  extraTags: readonly (readonly [string, string])[]
}

export interface TraceTranscoded {
  /** A view with `room` free bytes before it in its own buffer (shared/payload-room.ts). */
  payload: Uint8Array
  room: number
  points: number
  stats: MapStats
}

const table = new SpanTable()
const mapper = new SpanMapper()
const out = new Out()
/** Output buffers past this size are not kept between tasks. */
const KEEP = 4 << 20

/** Whether the options are ones the transcoder applies exactly as the general mapping. */
function eligible(o: OtlpOptions): boolean {
  return (
    o.customerTags.length === 0 &&
    !o.customerTagsAll &&
    !o.splitServiceName &&
    o.tags.length === 0 &&
    o.samplingRate >= 1 &&
    o.closeResource.length === 0 &&
    tagString(o.remoteIp) &&
    tagString(o.fingerprint)
  )
}

function globalTags(extra: TraceTranscodeInput['extraTags']): GlobalTags {
  const keys = extra.map(([k]) => k)
  const bytes = extra.map(([k, v]) => {
    const w = new PbWriter(64)
    writeTag(w, k, v)
    return w.finish()
  })
  return { keys, bytes }
}

function spans(t: SpanTable, k: SpanTask, now: bigint, globals: GlobalTags): void {
  const nowHi = Number(now >> 32n)
  const nowLo = Number(now & 0xffffffffn)
  // The general mapping counts a resource's attributes past the limit even without spans.
  for (let g = 0; g < t.groups; g++)
    if (t.groupKv[2 * g + 1] - t.groupKv[2 * g] > k.maxAttributes) throw DECLINE
  mapper.collectIds(t, k.b)
  let group = -1
  for (let i = 0; i < t.n; i++) {
    if (t.cols.group[i] !== group) mapper.group(k, (group = t.cols.group[i]))
    // Past int64 the general path fails the request; zero is the receive time.
    if (t.startHi[i] > 0x7fffffff) throw DECLINE
    mapper.span(k, i)
    const zero = t.startHi[i] === 0 && t.startLo[i] === 0
    out.ensure(64)
    writeSpan(out, k, mapper, i, globals, zero ? nowHi : t.startHi[i], zero ? nowLo : t.startLo[i])
  }
}

/** The request's upload bytes, or null when it takes the general path. */
export function transcodeTraces(input: TraceTranscodeInput): TraceTranscoded | null {
  const o = input.options
  if (!eligible(o)) return null
  try {
    scanTraces(input.body, table)
    if (table.n === 0 || table.n > o.maxEntries) return null
    const k: SpanTask = {
      b: input.body,
      t: table,
      maxAttributes: o.maxAttributes,
      message: o.message,
      fingerprint: o.fingerprint,
      remoteIp: o.remoteIp,
    }
    out.pos = 0
    spans(table, k, input.now, globalTags(input.extraTags))
  } catch (e) {
    if (e === DECLINE) return null
    throw e
  }
  const payload = withRoom(out.buf, out.pos)
  if (out.buf.length > KEEP) out.buf = new Uint8Array(1 << 16)
  const stats = newStats()
  stats.transcodedSpans = table.n
  return { payload, room: PAYLOAD_ROOM, points: table.n, stats }
}
