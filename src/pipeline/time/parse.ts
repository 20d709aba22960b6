/**
 * Date parsing for `default_time`: the formats logs print (ISO 8601 with `T` or space, comma or
 * dot fractions; nginx, Apache, redis, MySQL, gin, Tomcat, syslog, RFC 1123; Unix timestamps
 * in s/ms/us/ns by digit count). A time without a zone is read in `tz`.
 * Returns nanoseconds since the epoch, or null when no format fits.
 */
import { offsetAt, fixedOffset } from '../../shared/time-zone.js'

const MON: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
}
const ZONE = '(Z|[+-]\\d{2}:?\\d{2}|(?:UTC|GMT)(?:[+-]\\d{1,2}(?::?\\d{2})?)?|[A-Z]{2,5})'
const TIME = '(\\d{1,2}):(\\d{2})(?::(\\d{2})(?:[.,](\\d{1,9}))?)?'
const DAY = '(?:[A-Za-z]{3,9},?\\s+)?'

interface Parts {
  y: number
  mo: number
  d: number
  h: number
  mi: number
  s: number
  frac: string
  zone: string
}

type Reader = (m: RegExpExecArray) => Parts

const FORMATS: [RegExp, Reader][] = [
  [
    new RegExp(`^(\\d{4})[-/.](\\d{1,2})[-/.](\\d{1,2})(?:T|\\s+-\\s+|\\s+)${TIME}\\s*${ZONE}?$`),
    (m) => parts(+m[1], +m[2], +m[3], m, 4),
  ],
  [
    new RegExp(`^(\\d{1,2})/([A-Za-z]{3})[a-z]*/(\\d{4}):${TIME}\\s*${ZONE}?$`),
    (m) => parts(+m[3], MON[m[2].toLowerCase()], +m[1], m, 4),
  ],
  [
    new RegExp(
      `^${DAY}(\\d{1,2})[\\s-]+([A-Za-z]{3})[a-z]*[\\s-]+(\\d{2,4})\\s+${TIME}\\s*${ZONE}?$`,
    ),
    (m) => parts(year(m[3]), MON[m[2].toLowerCase()], +m[1], m, 4),
  ],
  [
    new RegExp(
      `^${DAY}([A-Za-z]{3})[a-z]*\\s+(\\d{1,2})\\s+${TIME}(?:\\s+${ZONE})?(?:\\s+(\\d{4}))?$`,
    ),
    (m) => parts(m[8] ? +m[8] : new Date().getUTCFullYear(), MON[m[1].toLowerCase()], +m[2], m, 3),
  ],
  [
    new RegExp(`^(\\d{2})(\\d{2})(\\d{2})\\s+${TIME}$`),
    (m) => parts(2000 + +m[1], +m[2], +m[3], m, 4),
  ],
  [
    /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/,
    (m) => ({ y: +m[1], mo: +m[2], d: +m[3], h: +m[4], mi: +m[5], s: +m[6], frac: '', zone: '' }),
  ],
]

function year(s: string): number {
  return s.length === 2 ? 2000 + +s : +s
}

function parts(y: number, mo: number, d: number, m: RegExpExecArray, at: number): Parts {
  return {
    y,
    mo,
    d,
    h: +m[at],
    mi: +m[at + 1],
    s: m[at + 2] ? +m[at + 2] : 0,
    frac: m[at + 3] ?? '',
    zone: m[at + 4] ?? '',
  }
}

function fromDigits(s: string): bigint | null {
  const n = BigInt(s)
  if (s.length <= 10) return n * 1_000_000_000n
  if (s.length <= 13) return n * 1_000_000n
  if (s.length <= 16) return n * 1000n
  if (s.length <= 19) return n
  return null
}

function toNs(p: Parts, tz: string): bigint | null {
  if (!p.mo || p.mo > 12 || p.d < 1 || p.d > 31 || p.h > 23 || p.mi > 59 || p.s > 60) return null
  const wall = Date.UTC(p.y, p.mo - 1, p.d, p.h, p.mi, p.s)
  let offset: number | undefined
  if (p.zone) offset = fixedOffset(p.zone)
  if (offset === undefined) offset = offsetAt(tz, wall)
  const ms = wall - offset * 60_000
  const frac = p.frac ? BigInt(p.frac.padEnd(9, '0')) : 0n
  return BigInt(ms) * 1_000_000n + frac
}

export function parseTime(text: string, tz: string): bigint | null {
  const s = text.trim()
  if (/^\d{9,19}$/.test(s)) return fromDigits(s)
  for (const [re, read] of FORMATS) {
    const m = re.exec(s)
    if (m) return toNs(read(m), tz)
  }
  return null
}
