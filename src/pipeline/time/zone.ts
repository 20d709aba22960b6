/**
 * The zone argument of `default_time`, `parse_date` and friends, in every form the reference
 * accepts: `+N`/`-N` offsets (with `:30`/`:45` where a zone has them) mapped to the same IANA
 * zones the reference maps them to (so daylight saving applies as there: `+0` is
 * Europe/London), and IANA names. Forms the reference
 * leaves to Go's zone loader and Go refuses are accepted here too where they are unambiguous:
 * numeric offsets (`-0530`, `+08:00`), `UTC+8`, and the common abbreviations.
 *
 * Returns a zone `offsetAt` understands, or null when the text names no zone (the caller then
 * leaves the point as it is, as the reference does when its zone lookup fails).
 */
import { isZone } from '../../shared/time-zone.js'

const OFFSET_ZONES: Record<string, string> = {
  '-11': 'Pacific/Midway',
  '-10': 'Pacific/Honolulu',
  '-9:30': 'Pacific/Marquesas',
  '-9': 'America/Anchorage',
  '-8': 'America/Los_Angeles',
  '-7': 'America/Phoenix',
  '-6': 'America/Chicago',
  '-5': 'America/New_York',
  '-4': 'America/Santiago',
  '-3:30': 'America/St_Johns',
  '-3': 'America/Sao_Paulo',
  '-2': 'America/Noronha',
  '-1': 'America/Scoresbysund',
  '+0': 'Europe/London',
  '+1': 'Europe/Vatican',
  '+2': 'Europe/Kiev',
  '+3': 'Europe/Moscow',
  '+3:30': 'Asia/Tehran',
  '+4': 'Asia/Dubai',
  '+4:30': 'Asia/Kabul',
  '+5': 'Asia/Samarkand',
  '+5:30': 'Asia/Kolkata',
  '+5:45': 'Asia/Kathmandu',
  '+6': 'Asia/Almaty',
  '+6:30': 'Asia/Yangon',
  '+7': 'Asia/Jakarta',
  '+8': 'Asia/Shanghai',
  '+8:45': 'Australia/Eucla',
  '+9': 'Asia/Tokyo',
  '+9:30': 'Australia/Darwin',
  '+10': 'Australia/Sydney',
  '+10:30': 'Australia/Lord_Howe',
  '+11': 'Pacific/Guadalcanal',
  '+12': 'Pacific/Auckland',
  '+12:45': 'Pacific/Chatham',
  '+13': 'Pacific/Apia',
  '+14': 'Pacific/Kiritimati',
}

const resolved = new Map<string, string | null>()

function resolve(tz: string): string | null {
  const named = OFFSET_ZONES[tz] ?? OFFSET_ZONES[tz.replace(/^([+-])0(\d)/, '$1$2')]
  if (named) return named
  // `+8` style offsets the reference has no zone for, and `-0530`/`+08:00`: fixed offsets.
  const short = /^([+-])(\d{1,2})(?::(\d{2}))?$/.exec(tz)
  if (short && Number(short[2]) <= 14)
    return `${short[1]}${short[2].padStart(2, '0')}:${short[3] ?? '00'}`
  return isZone(tz) ? tz : null
}

export function scriptZone(tz: string): string | null {
  const t = tz.trim()
  let z = resolved.get(t)
  if (z === undefined) {
    z = resolve(t)
    if (resolved.size > 1000) resolved.clear()
    resolved.set(t, z)
  }
  return z
}
