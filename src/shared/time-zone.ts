/**
 * Time zones for wall-clock times without an offset: IANA names through Intl (offsets cached
 * per zone and wall-clock hour, so a log file costs one Intl call an hour of data), fixed
 * offsets and the abbreviations logs print. `CST` is China Standard Time, as in the reference.
 */
const ABBREV: Record<string, number> = {
  UTC: 0,
  GMT: 0,
  Z: 0,
  UT: 0,
  CST: 480,
  HKT: 480,
  SGT: 480,
  AWST: 480,
  JST: 540,
  KST: 540,
  IST: 330,
  CET: 60,
  CEST: 120,
  EET: 120,
  EEST: 180,
  WET: 0,
  WEST: 60,
  BST: 60,
  MSK: 180,
  EST: -300,
  EDT: -240,
  CDT: -300,
  MST: -420,
  MDT: -360,
  PST: -480,
  PDT: -420,
  AEST: 600,
  AEDT: 660,
}

const formatters = new Map<string, Intl.DateTimeFormat>()
const offsets = new Map<string, number>()

export function localZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
}

/** Minutes east of UTC for a `+08:00`, `-0700`, `Z` or abbreviation; undefined otherwise. */
export function fixedOffset(zone: string): number | undefined {
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(zone)
  if (m) return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]))
  const hours = /^(?:UTC|GMT)([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(zone)
  if (hours) return (hours[1] === '-' ? -1 : 1) * (Number(hours[2]) * 60 + Number(hours[3] ?? 0))
  return ABBREV[zone.toUpperCase()]
}

export function isZone(zone: string): boolean {
  if (fixedOffset(zone) !== undefined) return true
  try {
    formatter(zone)
    return true
  } catch {
    return false
  }
}

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
    formatters.set(tz, f)
  }
  return f
}

/** Offset (minutes) of an IANA zone at the UTC instant `ms`. */
function ianaOffset(tz: string, ms: number): number {
  const parts = formatter(tz).formatToParts(new Date(ms))
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0)
  const wall = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  )
  return Math.round((wall - Math.floor(ms / 1000) * 1000) / 60_000)
}

/** Offset (minutes) to subtract from a wall-clock time in `tz` (UTC ms of the wall time). */
export function offsetAt(tz: string, wallMs: number): number {
  const fixed = fixedOffset(tz)
  if (fixed !== undefined) return fixed
  const key = `${tz}|${Math.floor(wallMs / 3_600_000)}`
  let off = offsets.get(key)
  if (off === undefined) {
    const first = ianaOffset(tz, wallMs)
    off = ianaOffset(tz, wallMs - first * 60_000)
    if (offsets.size > 10_000) offsets.clear()
    offsets.set(key, off)
  }
  return off
}
