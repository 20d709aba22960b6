/**
 * The fast route of a decode task: a line protocol body that needs no echo, no strict check,
 * no RUM work, no `[io]` filter or time correction and no pipeline script goes through the
 * byte-level transcoder, with its category's rules (strings dropped, disabled and required
 * keys); everything else (and every body the transcoder declines) takes the general path. Both
 * give the same answer: the transcoder only accepts what it encodes exactly as the general path
 * does, and counts the same corrections.
 */
import { optionsFor } from '../decode/check/options.js'
import { formatOf } from '../decode/parse-body.js'
import { transcodeLp } from '../decode/lp/transcode.js'
import type { PipelineHost } from '../pipeline/worker-host.js'
import type { DecodeOk, DecodeTask } from './protocol.js'

const OPEN_BRACKET = 91

/** Cheap tests on the task alone; the body is looked at only when they pass. */
function eligible(t: DecodeTask): boolean {
  return !(t.otlp || t.echo || t.strict || t.rum || t.io || formatOf(t.contentType) !== 'lp')
}

export async function tryFast(
  t: DecodeTask,
  body: Uint8Array,
  host: PipelineHost | null,
): Promise<DecodeOk | null> {
  if (!eligible(t) || body.length === 0 || body[0] === OPEN_BRACKET) return null
  if (host && t.pipeline && (await host.mayApply(t.category, t.pipeline))) return null
  const opts = optionsFor(t.category)
  const r = transcodeLp({
    body,
    rules: { stringsKept: !opts.dropStrings, dotsAllowed: !opts.dotToUnderscore },
    disabledKeys: opts.disabledKeys,
    required: opts.required,
    precision: t.precision,
    now: t.now,
    extraTags: t.extraTags,
    maxPoints: t.maxPoints,
  })
  if (!r) return null
  return transcoded(r.payload, r.points, r.warnings, body.length, r.room)
}

/** A transcoder's answer: no echo, no script ran; `room` free bytes before the payload. */
export function transcoded(
  payload: Uint8Array,
  points: number,
  warnings: Record<string, number>,
  bodyBytes: number,
  room: number,
): DecodeOk {
  const pipeline: DecodeOk['pipeline'] = []
  return {
    ok: true,
    points,
    payload,
    payloadRoom: room,
    echo: null,
    warnings,
    bodyBytes,
    pipeline,
    sourcemaps: undefined,
  }
}
