/**
 * `datetime()` output: Go layout names (RFC3339, ANSIC, ...) or a Go layout string
 * (`2006-01-02 15:04:05.000`), in a zone.
 */
import { offsetAt } from '../../shared/time-zone.js'

const NAMED: Record<string, string> = {
  ANSIC: 'Mon Jan _2 15:04:05 2006',
  UnixDate: 'Mon Jan _2 15:04:05 MST 2006',
  RFC822: '02 Jan 06 15:04 MST',
  RFC822Z: '02 Jan 06 15:04 -0700',
  RFC850: 'Monday, 02-Jan-06 15:04:05 MST',
  RFC1123: 'Mon, 02 Jan 2006 15:04:05 MST',
  RFC1123Z: 'Mon, 02 Jan 2006 15:04:05 -0700',
  RFC3339: '2006-01-02T15:04:05Z07:00',
  RFC3339Nano: '2006-01-02T15:04:05.999999999Z07:00',
  Kitchen: '3:04PM',
}
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
const TOKENS =
  /2006|January|Jan|Monday|Mon|MST|Z07:00|-07:00|-0700|\.0+|\.9+|01|02|_2|15|03|04|05|06|PM|1|2|3|4|5/g

const pad = (n: number, w = 2) => String(n).padStart(w, '0')

function zoneText(off: number, colon: boolean, z: boolean): string {
  if (z && off === 0) return 'Z'
  const a = Math.abs(off)
  return `${off < 0 ? '-' : '+'}${pad(Math.floor(a / 60))}${colon ? ':' : ''}${pad(a % 60)}`
}

export function formatTime(ns: bigint, layout: string, tz: string): string {
  const ms = Number(ns / 1_000_000n)
  const off = offsetAt(tz, ms)
  const d = new Date(ms + off * 60_000)
  const frac = String(ns % 1_000_000_000n).padStart(9, '0')
  const h = d.getUTCHours()
  const map: Record<string, () => string> = {
    '2006': () => String(d.getUTCFullYear()),
    '06': () => pad(d.getUTCFullYear() % 100),
    January: () => MONTHS[d.getUTCMonth()],
    Jan: () => MONTHS[d.getUTCMonth()].slice(0, 3),
    '01': () => pad(d.getUTCMonth() + 1),
    '1': () => String(d.getUTCMonth() + 1),
    Monday: () => DAYS[d.getUTCDay()],
    Mon: () => DAYS[d.getUTCDay()].slice(0, 3),
    '02': () => pad(d.getUTCDate()),
    '2': () => String(d.getUTCDate()),
    _2: () => String(d.getUTCDate()).padStart(2, ' '),
    '15': () => pad(h),
    '03': () => pad(h % 12 || 12),
    '3': () => String(h % 12 || 12),
    '04': () => pad(d.getUTCMinutes()),
    '4': () => String(d.getUTCMinutes()),
    '05': () => pad(d.getUTCSeconds()),
    '5': () => String(d.getUTCSeconds()),
    PM: () => (h < 12 ? 'AM' : 'PM'),
    MST: () => (off === 0 ? 'UTC' : zoneText(off, false, false)),
    'Z07:00': () => zoneText(off, true, true),
    '-07:00': () => zoneText(off, true, false),
    '-0700': () => zoneText(off, false, false),
  }
  return (NAMED[layout] ?? layout).replace(TOKENS, (t) => {
    if (t.startsWith('.0')) return '.' + frac.slice(0, t.length - 1)
    if (t.startsWith('.9')) {
      const f = frac.slice(0, t.length - 1).replace(/0+$/, '')
      return f ? '.' + f : ''
    }
    return map[t]()
  })
}
