/**
 * String functions. Each takes a key, changes its value in place, and ignores absent keys.
 * Patterns (replace, match, kv_split) are RE2, matched in linear time (regex/linear.ts).
 */
import { cachedLinear } from '../regex/linear.js'
import type { LibFn } from './lib-fn.js'
import { keyArg, strArg, valArg } from './context.js'
import { getKey, setKey, type PlPoint } from './pl-point.js'
import { jsonText } from './json-text.js'

/** Applies `f` to the string value of the key named by `a[0]`. */
function inPlace(p: PlPoint, a: unknown[], fn: string, f: (s: string) => string): void {
  const key = keyArg(a[0], fn)
  const v = getKey(p, key)
  if (typeof v === 'string') setKey(p, key, f(v))
}

function trimCutset(s: string, cutset: string): string {
  const chars = new Set(cutset)
  let i = 0
  let j = s.length
  while (i < j && chars.has(s[i])) i++
  while (j > i && chars.has(s[j - 1])) j--
  return s.slice(i, j)
}

function cover(s: string, range: unknown): string {
  if (!Array.isArray(range) || range.length !== 2) return s
  const runes = [...s]
  let from = Math.max(1, Number(range[0]))
  let to = Math.min(runes.length, Number(range[1]))
  if (from > to) [from, to] = [to, from]
  for (let i = from - 1; i < to; i++) runes[i] = '＊'
  return runes.join('')
}

/** Go-style verbs: %s %v %d %f %.Nf %q %%. */
export function goFormat(fmt: string, args: unknown[]): string {
  let i = 0
  return fmt.replace(/%(\.\d+)?([svdfq%])/g, (_m, prec: string | undefined, verb: string) => {
    if (verb === '%') return '%'
    const v = args[i++]
    if (verb === 'd') return String(Math.trunc(Number(v)))
    if (verb === 'f') return Number(v).toFixed(prec ? Number(prec.slice(1)) : 6)
    if (verb === 'q') return JSON.stringify(String(v))
    return typeof v === 'object' && v !== null ? jsonText(v) : String(v)
  })
}

function kvSplit(p: PlPoint, a: unknown[]): boolean {
  const text = strArg(p, { $k: keyArg(a[0], 'kv_split') })
  if (text === null) return false
  const fieldSplit = cachedLinear(typeof a[1] === 'string' && a[1] ? a[1] : ' ')
  const valueSplit = typeof a[2] === 'string' && a[2] ? a[2] : '='
  const include = Array.isArray(a[5]) ? new Set(a[5].map(String)) : null
  const prefix = typeof a[6] === 'string' ? a[6] : ''
  let found = false
  for (const part of fieldSplit.split(text)) {
    const at = part.indexOf(valueSplit)
    if (at <= 0) continue
    let k = part.slice(0, at)
    let v = part.slice(at + valueSplit.length)
    if (typeof a[3] === 'string') k = trimCutset(k, a[3])
    if (typeof a[4] === 'string') v = trimCutset(v, a[4])
    if (include && !include.has(k)) continue
    setKey(p, prefix + k, v)
    found = true
  }
  return found
}

function urlParse(p: PlPoint, a: unknown[]): Record<string, unknown> | null {
  const s = strArg(p, { $k: keyArg(a[0], 'url_parse') })
  if (s === null) return null
  try {
    const u = new URL(s)
    const params: Record<string, string> = {}
    for (const [k, v] of u.searchParams) params[k] = v
    return {
      scheme: u.protocol.replace(/:$/, ''),
      host: u.hostname,
      port: u.port,
      path: u.pathname,
      params,
    }
  } catch {
    return null
  }
}

/** The low 64 bits of a 32- or 16-hex-digit W3C id, in decimal; anything else unchanged. */
function w3cToDatadog(s: string): string {
  if ((s.length !== 32 && s.length !== 16) || !/^[0-9a-fA-F]+$/.test(s)) return s
  return BigInt('0x' + s.slice(-16)).toString()
}

export const STRING_FNS: Record<string, LibFn> = {
  lowercase: {
    params: ['key'],
    run: (_c, p, a) => inPlace(p, a, 'lowercase', (s) => s.toLowerCase()),
  },
  uppercase: {
    params: ['key'],
    run: (_c, p, a) => inPlace(p, a, 'uppercase', (s) => s.toUpperCase()),
  },
  trim: {
    params: ['key', 'cutset'],
    run: (_c, p, a) =>
      inPlace(p, a, 'trim', (s) => (typeof a[1] === 'string' ? trimCutset(s, a[1]) : s.trim())),
  },
  replace: {
    params: ['key', 'regex', 'replacement'],
    run: (_c, p, a) =>
      inPlace(p, a, 'replace', (s) =>
        cachedLinear(String(a[1])).replaceAll(s, String(a[2]).replace(/\$\{(\w+)\}/g, '$<$1>')),
      ),
  },
  cover: {
    params: ['key', 'range'],
    run: (_c, p, a) => inPlace(p, a, 'cover', (s) => cover(s, a[1])),
  },
  strfmt: {
    params: ['key', 'fmt', 'args'],
    run: (_c, p, a) =>
      setKey(
        p,
        keyArg(a[0], 'strfmt'),
        goFormat(
          String(a[1]),
          a.slice(2).map((x) => valArg(p, x)),
        ),
      ),
  },
  b64enc: {
    params: ['key'],
    run: (_c, p, a) => inPlace(p, a, 'b64enc', (s) => Buffer.from(s).toString('base64')),
  },
  b64dec: {
    params: ['key'],
    run: (_c, p, a) => inPlace(p, a, 'b64dec', (s) => Buffer.from(s, 'base64').toString('utf8')),
  },
  url_decode: {
    params: ['key'],
    run: (_c, p, a) =>
      inPlace(p, a, 'url_decode', (s) => {
        try {
          return decodeURIComponent(s.replace(/\+/g, ' '))
        } catch {
          return s
        }
      }),
  },
  url_parse: { params: ['key'], run: (_c, p, a) => urlParse(p, a) },
  kv_split: {
    params: [
      'key',
      'field_split_pattern',
      'value_split_pattern',
      'trim_key',
      'trim_value',
      'include_keys',
      'prefix',
    ],
    run: (_c, p, a) => kvSplit(p, a),
  },
  conv_traceid_w3c_to_dd: {
    params: ['key'],
    run: (_c, p, a) => inPlace(p, a, 'conv_traceid_w3c_to_dd', w3cToDatadog),
  },
  match: {
    params: ['pattern', 'value'],
    run: (_c, p, a) => cachedLinear(String(a[0])).test(strArg(p, a[1]) ?? ''),
  },
}
