/**
 * The fast route of an OTLP trace export: a protobuf ExportTraceServiceRequest with no `[io]`
 * work and no pipeline script for the tracing category goes through the trace transcoder
 * (decode/otlp/transcode.ts), in the decode worker like every OTLP task (never on the HTTP
 * thread: `inline-first.ts` only takes line protocol). Anything it declines takes the general
 * path, which gives the same answer; the stats say which path mapped the spans.
 */
import { otlpEncoding } from '../decode/otlp/decode.js'
import { transcodeTraces } from '../decode/otlp/transcode.js'
import type { PipelineHost } from '../pipeline/worker-host.js'
import { transcoded } from './fast.js'
import type { DecodeOk, DecodeTask } from './protocol.js'

export async function tryFastOtlp(
  t: DecodeTask,
  body: Uint8Array,
  host: PipelineHost | null,
): Promise<DecodeOk | null> {
  const otlp = t.otlp
  if (!otlp || otlp.signal !== 'traces' || t.io || t.echo || t.strict || t.rum) return null
  if (otlpEncoding(t.contentType) !== 'protobuf' || body.length === 0) return null
  if (host && t.pipeline && (await host.mayApply(t.category, t.pipeline))) return null
  const r = transcodeTraces({ body, options: otlp.options, now: t.now, extraTags: t.extraTags })
  if (!r) return null
  return { ...transcoded(r.payload, r.points, {}, body.length, r.room), otlp: r.stats }
}
