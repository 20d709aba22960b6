/**
 * Deep paging with `search_after` (agent spec 4.16: send an empty list first, then the list the
 * previous page returned). The returned list is the full sort key of the page's last row,
 * `[time_ms, time_ns_within_ms, row_id]`: the time to the nanosecond plus the engine's row id as
 * a unique tiebreaker, so rows sharing a millisecond are neither skipped nor repeated.
 *
 * It applies to raw queries without BY ordered by time first; other queries page by time alone.
 * A one-number list (a time in ms, as older clients send) keeps its meaning: strictly after it.
 */
import { bad } from './invalid.js'

export type Cursor =
  { kind: 'time'; ms: number } | { kind: 'key'; timeNs: bigint; id: number } | { kind: 'first' }

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v)

export function parseCursor(list: unknown[] | null): Cursor | null {
  if (list === null) return null
  if (list.length === 0) return { kind: 'first' }
  if (list.length === 1 && typeof list[0] === 'number') return { kind: 'time', ms: list[0] }
  const [ms, ns, id] = list
  if (list.length !== 3 || !isInt(ms) || !isInt(ns) || !isInt(id) || ns < 0 || ns > 999_999)
    throw bad('search_after: send back the list the previous page returned')
  return { kind: 'key', timeNs: BigInt(ms) * 1_000_000n + BigInt(ns), id }
}

/** The key of a page's last row, to be sent back for the next page. */
export function nextCursor(timeNs: bigint, id: unknown): unknown[] {
  const ms = timeNs / 1_000_000n
  return [Number(ms), Number(timeNs - ms * 1_000_000n), Number(id)]
}
