/**
 * Which traces are kept, in the reference's order: a trace the tracer marked rejected is left
 * out; a trace with an error span is kept whole; a trace with a web span whose
 * `http.status_code` is listed in `omit_err_status` is left out; a trace whose first span the
 * user marked keep (priority 2) is kept; the others are kept when their trace id's low 64 bits
 * modulo 10000 are at most `sampling_rate` × 10000, so every agent and request decide alike.
 */
import type { DdTrace } from './model.js'
import type { DdtraceOptions } from './options.js'
import { PRIORITY_KEY, rejectedByTracer } from './map.js'
import { sourceType } from './source-type.js'

/** keep, keep by the rate (the trace says at which), or left out and why. */
export type Verdict = 'keep' | 'rate' | 'priority' | 'omitted' | 'sampled'

function omitted(t: DdTrace, statuses: readonly string[]): boolean {
  return t.some(
    (s) => sourceType(s.type) === 'web' && statuses.includes(s.meta.get('http.status_code') ?? ''),
  )
}

export function judge(t: DdTrace, o: DdtraceOptions): Verdict {
  if (rejectedByTracer(t)) return 'priority'
  if (t.some((s) => s.error !== 0)) return 'keep'
  if (o.omitErrStatus.length > 0 && omitted(t, o.omitErrStatus)) return 'omitted'
  if (o.samplingRate >= 1 || t[0].metrics.get(PRIORITY_KEY) === 2) return 'keep'
  const threshold = BigInt(Math.floor(o.samplingRate * 10000))
  return t[0].traceId % 10000n <= threshold ? 'rate' : 'sampled'
}
