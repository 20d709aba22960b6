/**
 * Ids as the reference writes them: decimal by default, "0" for none; 16 hex digits (zero
 * padded) for span ids under `compatible_otel` and for every id under `trace_id_64_bit_hex`;
 * a trace whose span carries `_dd.p.tid` (the high 64 bits, in hex) gets the 128-bit id as
 * that prefix and the low 64 bits in 16 hex digits, unless `trace_128_bit_id` is off. A
 * trace's id is worked out once, from its first span, and written on all of its spans.
 */
import type { DdSpan } from './model.js'
import type { DdtraceOptions } from './options.js'

export function hex16(id: bigint): string {
  return id.toString(16).padStart(16, '0')
}

export function spanIdText(id: bigint, o: DdtraceOptions): string {
  if (id === 0n) return '0'
  return o.compatibleOtel || o.traceIdHex64 ? hex16(id) : id.toString(10)
}

export function traceIdText(first: DdSpan, o: DdtraceOptions): string {
  if (o.traceIdHex64) return hex16(first.traceId)
  const high = first.meta.get('_dd.p.tid')
  if (o.trace128 && high !== undefined) return high + hex16(first.traceId)
  return first.traceId.toString(10)
}
