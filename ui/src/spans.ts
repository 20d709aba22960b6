/**
 * What the trace pages share: the tracing sources they read (`opentelemetry`, where the OTLP
 * receivers write, and `ddtrace`, where Datadog tracers' spans go, as one table), durations in the microseconds the mapping stores, and the order of a
 * trace's spans for the waterfall. A span whose parent is not in the trace (lost, sampled out
 * or not yet written) is drawn as a root, so no stored span is ever hidden.
 */
// Not api.ts's Row: this module stays free of the DOM, so the unit tests can load it in Node.
type Row = Record<string, unknown>

export const TRACES = `T::re('opentelemetry|ddtrace')`

/** A duration in microseconds, in the unit that reads best. */
export function formatDuration(us: number): string {
  if (us >= 1_000_000) return `${(us / 1_000_000).toFixed(2)} s`
  if (us >= 1000) return `${(us / 1000).toFixed(2)} ms`
  return `${Math.round(us)} µs`
}

export interface Placed {
  span: Row
  depth: number
}

const id = (v: unknown) => (v === null || v === undefined ? '' : String(v))

/** The spans depth first, each parent before its children, siblings by start time. */
export function waterfallOrder(spans: Row[]): Placed[] {
  const ids = new Set(spans.map((s) => id(s.span_id)))
  const children = new Map<string, Row[]>()
  const roots: Row[] = []
  for (const s of spans) {
    const parent = id(s.parent_id)
    if (parent && parent !== '0' && ids.has(parent) && parent !== id(s.span_id)) {
      const list = children.get(parent) ?? []
      list.push(s)
      children.set(parent, list)
    } else roots.push(s)
  }
  const byStart = (a: Row, b: Row) => Number(a.start) - Number(b.start)
  const out: Placed[] = []
  // An explicit stack, not recursion: a hostile trace may be deep.
  const stack: Placed[] = roots
    .sort(byStart)
    .reverse()
    .map((span) => ({ span, depth: 0 }))
  const seen = new Set<Row>()
  while (stack.length) {
    const p = stack.pop()!
    if (seen.has(p.span)) continue
    seen.add(p.span)
    out.push(p)
    const kids = (children.get(id(p.span.span_id)) ?? []).sort(byStart).reverse()
    for (const span of kids) stack.push({ span, depth: p.depth + 1 })
  }
  // Spans in a parent cycle are reached by no root: show them last, at the top level.
  for (const span of spans) if (!seen.has(span)) out.push({ span, depth: 0 })
  return out
}
