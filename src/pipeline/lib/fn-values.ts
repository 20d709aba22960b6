/**
 * Value functions that read their arguments and return a result, touching no key:
 * valid_json, parse_int, format_int, slice_string, hash, sample. Bad input gives the
 * reference's neutral answer (`0`, `""`, `false`), never a run error.
 *
 * Integers are exact over int64 as the reference's: parse_int answers a bigint past 2^53
 * (a BigInt in the sandbox), format_int takes one.
 */
import { createHash } from 'node:crypto'
import { FerryError } from '../../errors.js'
import type { LibFn } from './lib-fn.js'
import { valArg } from './context.js'
import type { PlPoint } from './pl-point.js'

const DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz'

/** Go's strconv.ParseInt: base 0 reads a 0x/0o/0b/0 prefix (and allows `_`); else 0. */
export function parseInt64(text: string, base: number): number | bigint {
  let s = text
  let neg = false
  if (s[0] === '+' || s[0] === '-') [neg, s] = [s[0] === '-', s.slice(1)]
  if (base === 0) {
    const m = /^0([xXoObB])?/.exec(s)
    base = m?.[1] ? { x: 16, o: 8, b: 2 }[m[1].toLowerCase() as 'x' | 'o' | 'b'] : m ? 8 : 10
    s = m?.[1] ? s.slice(2) : s
    if (s.startsWith('_') || s.endsWith('_') || s.includes('__')) return 0
    s = s.replace(/_/g, '')
  }
  if (!Number.isInteger(base) || base < 2 || base > 36 || s === '') return 0
  let n = 0n
  for (const c of s.toLowerCase()) {
    const d = DIGITS.indexOf(c)
    if (d < 0 || d >= base) return 0
    n = n * BigInt(base) + BigInt(d)
  }
  const max = 2n ** 63n - (neg ? 0n : 1n)
  if (n > max) n = max
  const r = neg ? -n : n
  return Number.isSafeInteger(Number(r)) ? Number(r) : r
}

function formatInt(v: unknown, base: unknown): string {
  if (typeof v !== 'bigint' && (typeof v !== 'number' || !Number.isInteger(v))) return ''
  if (typeof base !== 'number' || base < 2 || base > 36) return ''
  return BigInt(v).toString(base)
}

function sliceString(p: PlPoint, a: unknown[]): string {
  const s = valArg(p, a[0])
  const start = a[1]
  let end = a[2]
  if (typeof s !== 'string' || !Number.isInteger(start) || !Number.isInteger(end)) return ''
  const runes = [...s]
  if ((end as number) > runes.length) end = runes.length
  if ((start as number) < 0 || (start as number) > (end as number)) return ''
  return runes.slice(start as number, end as number).join('')
}

const HASHES = new Set(['md5', 'sha1', 'sha256', 'sha512'])

function sample(v: unknown): boolean {
  if (typeof v !== 'number' || v < 0 || v > 1)
    throw new FerryError('badRequest', 'sample: the probability must be a number in [0, 1]')
  return Math.random() < v
}

function isJson(v: unknown): boolean {
  if (typeof v !== 'string') return false
  try {
    JSON.parse(v)
    return true
  } catch {
    return false
  }
}

export const VALUE_FNS: Record<string, LibFn> = {
  valid_json: { params: ['val'], run: (_c, p, a) => isJson(valArg(p, a[0])) },
  parse_int: {
    params: ['val', 'base'],
    run: (_c, p, a) => {
      const v = valArg(p, a[0])
      const base = valArg(p, a[1])
      return typeof v === 'string' && typeof base === 'number' ? parseInt64(v, base) : 0
    },
  },
  format_int: {
    params: ['val', 'base'],
    run: (_c, p, a) => formatInt(valArg(p, a[0]), valArg(p, a[1])),
  },
  slice_string: { params: ['name', 'start', 'end'], run: (_c, p, a) => sliceString(p, a) },
  hash: {
    params: ['text', 'method'],
    run: (_c, p, a) => {
      const text = valArg(p, a[0])
      const method = valArg(p, a[1])
      if (typeof text !== 'string' || typeof method !== 'string' || !HASHES.has(method)) return ''
      return createHash(method).update(text).digest('hex')
    },
  },
  sample: { params: ['p'], run: (_c, p, a) => sample(valArg(p, a[0])) },
}
