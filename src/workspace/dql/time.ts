/**
 * The time range of a query: the statement's `[start:end:interval]`, replaced by the
 * `time_range` option when given, bounded by `max_duration` (a range with no start begins
 * max_duration before its end; a longer range is refused). `max_point` widens the interval
 * so that no series gets more than that many buckets, counting the partial ones at both ends.
 */
import type { Query, TimePoint } from './ast.js'
import type { QueryOptions } from './options.js'
import { bad } from './invalid.js'

export interface Range {
  startMs: number
  /** Null: no upper bound (points stamped in the future are found too). */
  endMs: number | null
  intervalMs: number | null
  /**
   * Where buckets start: null for multiples of the interval since the epoch; the range's start
   * when epoch-aligned buckets would give more than max_point of them.
   */
  originMs: number | null
}

/** Epoch-aligned buckets of `step` touching [start, until). */
function buckets(startMs: number, untilMs: number, step: number): number {
  return Math.floor((untilMs - 1) / step) - Math.floor(startMs / step) + 1
}

function toMs(t: TimePoint, nowMs: number): number {
  return 'relativeMs' in t ? nowMs - t.relativeMs : t.absoluteMs
}

export function resolveRange(q: Query, o: QueryOptions, nowMs: number): Range {
  let startMs = q.time?.start ? toMs(q.time.start, nowMs) : null
  let endMs = q.time?.end ? toMs(q.time.end, nowMs) : null
  if (o.timeRange) {
    startMs = o.timeRange[0]
    endMs = o.timeRange[1] ?? null
  }
  const until = endMs ?? nowMs
  if (startMs === null) startMs = until - o.maxDurationMs
  else if (until - startMs > o.maxDurationMs)
    throw bad(
      `the time range (${until - startMs} ms) is longer than max_duration (${o.maxDurationMs} ms)`,
    )
  if (endMs !== null && endMs < startMs) throw bad('the time range ends before it starts')
  let intervalMs = q.time?.intervalMs ?? null
  if (intervalMs !== null && intervalMs < 1) throw bad('the interval must be at least 1ms')
  if (intervalMs !== null && o.maxPoint !== null && (until - startMs) / intervalMs > o.maxPoint)
    intervalMs = Math.ceil((until - startMs) / o.maxPoint)
  const max = o.maxPoint
  const originMs =
    intervalMs !== null && max !== null && buckets(startMs, until, intervalMs) > max
      ? startMs
      : null
  return { startMs, endMs, intervalMs, originMs }
}
