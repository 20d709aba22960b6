/**
 * What a library function gets besides its arguments: the script's scope (its grok patterns
 * and compiled expressions, which live as long as the script version) and run options.
 *
 * Arguments arrive as the sandbox handed them: plain values, or key references
 * `{$k: name}` (`_` is the reference to `message`; a Platypus identifier compiles to one).
 */
import { FerryError } from '../../errors.js'
import type { Grok } from '../grok/grok.js'
import { getKey, type PlPoint, type PlValue } from './pl-point.js'
import { jsonText } from './json-text.js'

export interface ScriptScope {
  name: string
  category: string
  /** Patterns added by add_pattern, layered over the shared set. */
  patterns: Map<string, string>
  /** Bumped when add_pattern changes a definition; part of the grok cache key. */
  patternsVersion: number
  grok: Map<string, Grok>
  lastGrok?: { pattern: string; version: number; grok: Grok }
  lookup: (name: string) => string | undefined
}

export interface CallCtx {
  scope: ScriptScope
  /** Zone for times printed without an offset. */
  tz: string
  statusMapping: boolean
  /** http_request calls made in this run, and the run's time limit (fn-http.ts). */
  httpCalls?: number
  timeLimitMs?: number
  /** default_time's parses in this run, by zone, then by text (fn-time.ts). */
  times?: Map<string, Map<string, bigint | null>>
}

export interface KeyRef {
  $k: string
  v?: unknown
}

export function isKeyRef(a: unknown): a is KeyRef {
  return typeof a === 'object' && a !== null && typeof (a as KeyRef).$k === 'string'
}

/** A key parameter: a reference or a key name given as a string. */
export function keyArg(a: unknown, fn: string): string {
  if (isKeyRef(a)) return a.$k
  if (typeof a === 'string') return a
  throw new FerryError('badRequest', `${fn}: expected a key, got ${typeof a}`)
}

/** A value parameter: a reference reads the key (null when absent). */
export function valArg(p: PlPoint, a: unknown): PlValue {
  if (isKeyRef(a)) return ('v' in a ? a.v : (getKey(p, a.$k) ?? null)) as PlValue
  return (a ?? null) as PlValue
}

export function strArg(p: PlPoint, a: unknown): string | null {
  const v = valArg(p, a)
  if (v === null) return null
  if (typeof v === 'string') return v
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8')
  return typeof v === 'object' ? jsonText(v) : String(v)
}
