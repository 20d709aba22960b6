/**
 * point_window / window_hit: context around a hit. A script declares a window per stream
 * (`point_window(before, after, stream_tags)`), usually drops most points, and calls
 * `window_hit()` on the interesting one: the dropped points among the `before` before it in
 * its stream come back, it is kept, and so are the next `after - 1` points of the stream,
 * dropped or not (the reference's semantics: `point_window(8, 8)` keeps 8 + 1 + 7). Recovered
 * points join the end of the write.
 *
 * Invariants (one state per decode worker, as the reference's per-process state):
 * - before and after are capped at MAX_WINDOW, so a stream holds at most MAX_WINDOW points;
 * - at most `[pipeline] max_window_streams` streams are held; past it the stream least
 *   recently seen is forgotten (its held points are dropped for good, as they would be
 *   without a hit).
 */
import { FerryError } from '../../errors.js'
import type { LibFn } from './lib-fn.js'
import { valArg } from './context.js'
import type { PlPoint } from './pl-point.js'

export const MAX_WINDOW = 100

interface Stream {
  /** The last `before` points of the stream: the dropped ones, null for those kept. */
  ring: (PlPoint | null)[]
  /** Points still to keep after a hit, the hit included. */
  hit: number
}

const streams = new Map<string, Stream>()
let maxStreams = 1000

export function setWindowStreamLimit(n: number): void {
  maxStreams = Math.max(0, n)
  for (const k of streams.keys()) if (streams.size > maxStreams) streams.delete(k)
}

function streamOf(key: string): Stream {
  let s = streams.get(key)
  if (s) streams.delete(key)
  else s = { ring: [], hit: 0 }
  streams.set(key, s)
  for (const k of streams.keys()) if (streams.size > maxStreams) streams.delete(k)
  return s
}

function one(p: PlPoint, w: NonNullable<PlPoint['window']>, id: string, run: Set<PlPoint>) {
  const s = streamOf(`${id}\u0000${w.stream}`)
  if (p.windowHit) s.hit = w.after
  if (s.hit > 0) {
    s.hit--
    const back = s.ring.filter((h): h is PlPoint => h !== null)
    s.ring = []
    for (const h of back) h.dropped = false
    // Points of this run go out in place; those of earlier runs join this write's end.
    const earlier = back.filter((h) => !run.has(h))
    if (earlier.length) (p.created ??= []).push(...earlier)
    p.dropped = false
  } else if (w.before > 0) {
    s.ring.push(p.dropped ? p : null)
    if (s.ring.length > w.before) s.ring.shift()
  }
}

/** After a run, in point order: applies the windows of the points that declared one. */
export function applyWindows(id: string, points: PlPoint[]): void {
  // Most scripts never call point_window: no set of the run's points for them.
  if (!points.some((p) => p.window)) return
  const run = new Set(points)
  for (const p of points) if (p.window && p.error === null) one(p, p.window, id, run)
}

function pointWindow(p: PlPoint, a: unknown[]): void {
  const before = valArg(p, a[0])
  const after = valArg(p, a[1])
  if (typeof before !== 'number' || typeof after !== 'number' || before < 0 || after < 0)
    throw new FerryError('badRequest', 'point_window: before and after must be numbers >= 0')
  const tags = Array.isArray(a[2]) ? a[2].map(String) : ['filepath', 'host']
  const stream = tags.map((t) => p.tags.get(t) ?? '').join('\u0000')
  const cap = (n: number) => Math.min(MAX_WINDOW, Math.trunc(n))
  p.window = { before: cap(before), after: cap(after), stream }
}

export const WINDOW_FNS: Record<string, LibFn> = {
  point_window: {
    params: ['before', 'after', 'stream_tags'],
    run: (_c, p, a) => pointWindow(p, a),
  },
  window_hit: {
    params: [],
    run: (_c, p) => {
      if (p.window) p.windowHit = true
    },
  },
}
