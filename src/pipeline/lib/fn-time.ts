/** Time functions: default_time, datetime, parse_duration, duration_precision, timestamp. */
import type { LibFn } from './lib-fn.js'
import { keyArg, type CallCtx } from './context.js'
import { deleteKey, getKey, setKey, type PlPoint } from './pl-point.js'
import { parseTime } from '../time/parse.js'
import { formatTime } from '../time/format.js'
import { scriptZone } from '../time/zone.js'
import { parseDuration } from '../../shared/duration.js'

const UNIT_NS: Record<string, bigint> = { s: 1_000_000_000n, ms: 1_000_000n, us: 1000n, ns: 1n }
/** Texts a run remembers the parse of; past it the memo starts again (bounded per run). */
const TIME_MEMO_MAX = 1024

/**
 * parseTime through the run's memo: a batch of log lines repeats its times (every line of a
 * second), and one run is short enough that a year-less time reads the same year throughout.
 */
function parseTimeMemo(c: CallCtx, text: string, tz: string): bigint | null {
  // The run's zone, or one the script names: a memo each, so no key is built per point.
  const zones = (c.times ??= new Map())
  let memo = zones.get(tz)
  if (!memo) {
    if (zones.size >= TIME_MEMO_MAX) zones.clear()
    zones.set(tz, (memo = new Map()))
  }
  let ns = memo.get(text)
  if (ns === undefined) {
    ns = parseTime(text, tz)
    if (memo.size >= TIME_MEMO_MAX) memo.clear()
    memo.set(text, ns)
  }
  return ns
}

function defaultTime(c: CallCtx, p: PlPoint, a: unknown[]): boolean {
  const key = keyArg(a[0], 'default_time')
  const v = getKey(p, key)
  if (v === undefined || v === null) return false
  const tz = typeof a[1] === 'string' && a[1] ? scriptZone(a[1]) : c.tz
  if (tz === null) return false
  const ns = parseTimeMemo(c, typeof v === 'number' ? String(Math.trunc(v)) : String(v), tz)
  if (ns === null) return false
  p.time = ns
  deleteKey(p, key)
  return true
}

function datetime(p: PlPoint, a: unknown[]): boolean {
  const key = keyArg(a[0], 'datetime')
  const v = getKey(p, key)
  const unit = UNIT_NS[String(a[1])]
  if (typeof v !== 'number' && typeof v !== 'bigint') return false
  if (!unit) return false
  const tz = typeof a[3] === 'string' ? scriptZone(a[3]) : 'UTC'
  if (tz === null) return false
  const ns = BigInt(Math.trunc(Number(v))) * unit
  setKey(p, key, formatTime(ns, String(a[2] ?? 'RFC3339'), tz))
  return true
}

export const TIME_FNS: Record<string, LibFn> = {
  default_time: { params: ['time', 'timezone'], run: (c, p, a) => defaultTime(c, p, a) },
  datetime: { params: ['key', 'precision', 'fmt', 'tz'], run: (_c, p, a) => datetime(p, a) },
  parse_duration: {
    params: ['key'],
    run: (_c, p, a) => {
      const key = keyArg(a[0], 'parse_duration')
      const v = getKey(p, key)
      const parsed = typeof v === 'string' ? parseDuration(v) : null
      const ns = parsed === null ? null : Number(parsed)
      if (ns !== null) setKey(p, key, ns)
    },
  },
  duration_precision: {
    params: ['key', 'old_precision', 'new_precision'],
    run: (_c, p, a) => {
      const key = keyArg(a[0], 'duration_precision')
      const v = getKey(p, key)
      const from = UNIT_NS[String(a[1])]
      const to = UNIT_NS[String(a[2])]
      if (typeof v !== 'number' || !from || !to) return
      setKey(p, key, Math.trunc((v * Number(from)) / Number(to)))
    },
  },
  timestamp: {
    params: ['precision'],
    run: (_c, _p, a) => {
      const ns = BigInt(Date.now()) * 1_000_000n
      return Number(ns / (UNIT_NS[String(a[0] ?? 'ns')] ?? 1n))
    },
  },
}
