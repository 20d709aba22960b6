/**
 * Dates from parts and zone repair: parse_date (a key from year, month, day, ... strings in
 * a zone) and adjust_timezone (moves a time by whole hours to within `minute` minutes of now,
 * for logs printed in a zone nobody told us about).
 *
 * parse_date as the reference: an empty year, month, day, hour or minute is the current one;
 * a two-digit year is in the current century; months are numbers or English names; no zone is
 * UTC; a part out of range is a run error. The result is nanoseconds since the epoch.
 */
import { FerryError } from '../../errors.js'
import { offsetAt } from '../../shared/time-zone.js'
import { scriptZone } from '../time/zone.js'
import type { LibFn } from './lib-fn.js'
import { keyArg, valArg } from './context.js'
import { getKey, setKey, type PlPoint } from './pl-point.js'

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
]

const bad = (msg: string): never => {
  throw new FerryError('badRequest', `parse_date: ${msg}`)
}

function intPart(p: PlPoint, a: unknown): number | null {
  const v = valArg(p, a)
  return typeof v === 'string' && /^[+-]?\d+$/.test(v) ? Number(v) : null
}

function month(p: PlPoint, a: unknown, now: Date): number {
  const v = valArg(p, a)
  if (typeof v !== 'string' || v === '') return now.getUTCMonth() + 1
  if (/^\d+$/.test(v)) return Number(v) >= 1 && Number(v) <= 12 ? Number(v) : bad('month')
  const lower = v.toLowerCase()
  const i = MONTHS.findIndex((m) => m === lower || (lower.length === 3 && m.startsWith(lower)))
  return i >= 0 ? i + 1 : bad(`unknown month ${v}`)
}

function inRange(v: number | null, fallback: number, lo: number, hi: number, what: string) {
  if (v === null) return fallback
  return v >= lo && v <= hi ? v : bad(`${what} out of range`)
}

function parseDate(p: PlPoint, a: unknown[]): void {
  const now = new Date()
  let y = intPart(p, a[1]) ?? now.getUTCFullYear()
  if (y < 0) bad('year should be larger than 0')
  if (y < 100) y += Math.floor(now.getUTCFullYear() / 100) * 100
  const mo = month(p, a[2], now)
  const d = inRange(intPart(p, a[3]), now.getUTCDate(), 1, 31, 'day')
  const h = inRange(intPart(p, a[4]), now.getUTCHours(), 0, 23, 'hour')
  const mi = inRange(intPart(p, a[5]), now.getUTCMinutes(), 0, 59, 'minute')
  const s = inRange(intPart(p, a[6]), 0, 0, 59, 'second')
  const [ms, us, ns] = [a[7], a[8], a[9]].map((x) => BigInt(intPart(p, x) ?? 0))
  const zoneText = valArg(p, a[10])
  const zone = typeof zoneText === 'string' && zoneText ? scriptZone(zoneText) : 'UTC'
  if (zone === null) bad(`unknown time zone ${String(zoneText)}`)
  const wall = Date.UTC(y, mo - 1, d, h, mi, s)
  const utcMs = wall - offsetAt(zone!, wall) * 60_000
  const total = BigInt(utcMs) * 1_000_000n + ms * 1_000_000n + us * 1000n + ns
  setKey(p, keyArg(a[0], 'parse_date'), total)
}

const HOUR = 3_600_000_000_000n

/** The reference's repair: the same minutes and seconds, in the hour nearest to now. */
export function nearHour(ts: bigint, now: bigint, allowMinutes: number): bigint {
  const allow = BigInt(allowMinutes) * 60_000_000_000n
  let t = ts - (ts / HOUR - now / HOUR) * HOUR
  if (t - now > allow) t -= HOUR
  else if (t - now <= -HOUR + allow) t += HOUR
  return t
}

function adjustTimezone(p: PlPoint, a: unknown[]): void {
  const key = keyArg(a[0], 'adjust_timezone')
  const minute = Math.min(15, Math.max(0, Math.trunc(Number(a[1] ?? 2)) || 0))
  const now = BigInt(Date.now()) * 1_000_000n
  const v = getKey(p, key)
  // default_time moved `time` into the point's time: repair that one.
  if (v === undefined && key === 'time') p.time = nearHour(p.time, now, minute)
  else if (typeof v === 'number') setKey(p, key, Number(nearHour(BigInt(v), now, minute)))
  else if (v !== undefined) throw new FerryError('badRequest', 'adjust_timezone: expects an int')
}

export const DATE_FNS: Record<string, LibFn> = {
  parse_date: {
    params: ['key', 'yy', 'MM', 'dd', 'hh', 'mm', 'ss', 'ms', 'us', 'ns', 'zone'],
    run: (_c, p, a) => parseDate(p, a),
  },
  adjust_timezone: { params: ['key', 'minute'], run: (_c, p, a) => adjustTimezone(p, a) },
}
