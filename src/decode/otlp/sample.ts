/**
 * Trace sampling that keeps every error: a trace with a span of status `error` in the request
 * is kept whole; any other is kept when its id falls in the configured share. The decision is
 * a function of the trace id alone (its last 8 bytes modulo 10000, as the reference's sampler),
 * so every agent and every request keep or drop the same traces, and a trace is never cut.
 */
import type { Point } from '../../shared/point.js'

function fieldText(p: Point, key: string): string {
  const f = p.fields.find((x) => x.key === key)
  return typeof f?.value === 'string' ? f.value : ''
}

export function keptByRate(traceId: string, rate: number): boolean {
  if (rate >= 1) return true
  if (rate <= 0) return false
  const hex = traceId.length > 16 ? traceId.slice(-16) : traceId
  const n = /^[0-9a-f]+$/i.test(hex) ? BigInt(`0x${hex}`) : 0n
  return Number(n % 10000n) < Math.floor(rate * 10000)
}

/** The spans kept, and how many were left out. */
export function sampleTraces(points: Point[], rate: number): { kept: Point[]; dropped: number } {
  if (rate >= 1) return { kept: points, dropped: 0 }
  const errors = new Set<string>()
  for (const p of points)
    if (p.tags.some((t) => t.key === 'status' && t.value === 'error'))
      errors.add(fieldText(p, 'trace_id'))
  const kept = points.filter((p) => {
    const id = fieldText(p, 'trace_id')
    return errors.has(id) || keptByRate(id, rate)
  })
  return { kept, dropped: points.length - kept.length }
}
