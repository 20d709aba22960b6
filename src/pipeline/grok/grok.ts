/**
 * Grok: `%{PATTERN:name:type}` expanded into one RE2 expression, matched in linear time on the
 * host side of the sandbox (regex/linear.ts). Matching is unanchored, as in the reference; a named
 * capture that took no part in the match yields "" (Go semantics), values are trimmed unless
 * asked not to, and `:int`, `:float`, `:bool`, `:str` convert them.
 *
 * Invariants: an expansion deeper than MAX_DEPTH is a recursive definition and fails; an
 * unknown pattern name fails the compile (the script sees a run error, the point is unchanged).
 */
import { FerryError } from '../../errors.js'
import { compileLinear, PatternError, type LinearRegex } from '../regex/linear.js'
import { describeUnsupported, findUnsupported } from '../regex/unsupported.js'
import { groupIndices, translateGo } from './translate.js'

const MAX_DEPTH = 64
const REF = /%\{(\w+)(?::([\w.@\-[\]]+))?(?::(int|float|bool|str|string))?\}/g

export type CaptureType = 'int' | 'float' | 'bool' | 'str'

export interface Capture {
  name: string
  index: number
  type: CaptureType
}

export interface Grok {
  re: LinearRegex
  captures: Capture[]
  /** Some field name is captured by more than one group. */
  duplicates: boolean
  /** Field name -> index in `captures` of its first group. */
  firstOf: Map<string, number>
}

export type PatternLookup = (name: string) => string | undefined

interface Expansion {
  names: { group: string; field: string; type: CaptureType }[]
  flags: Set<string>
}

function expand(src: string, lookup: PatternLookup, x: Expansion, depth: number): string {
  if (depth > MAX_DEPTH)
    throw new FerryError('badRequest', 'grok pattern nests too deep (recursive?)')
  const t = translateGo(src)
  for (const f of t.flags) x.flags.add(f)
  return t.source.replace(REF, (_m, name: string, field?: string, type?: string) => {
    const def = lookup(name)
    if (def === undefined) throw new FerryError('badRequest', `no grok pattern named ${name}`)
    const inner = expand(def, lookup, x, depth + 1)
    if (!field) return `(?:${inner})`
    const group = `g${x.names.length}`
    x.names.push({
      group,
      field,
      type: type === 'string' ? 'str' : ((type ?? 'str') as CaptureType),
    })
    return `(?<${group}>${inner})`
  })
}

function compileExpanded(source: string, flags: Set<string>): LinearRegex {
  try {
    return compileLinear(source, { ignoreCase: flags.has('i'), multiline: flags.has('m') })
  } catch (e) {
    // Offsets in the expansion mean nothing to the script's author; the reason quotes the text.
    if (e instanceof PatternError)
      throw new FerryError('badRequest', `grok pattern is not a valid expression: ${e.reason}`)
    throw e
  }
}

export function compileGrok(pattern: string, lookup: PatternLookup): Grok {
  const own = findUnsupported(pattern)
  if (own) throw new PatternError(`grok pattern: ${describeUnsupported(own)}`, own.offset)
  const x: Expansion = { names: [], flags: new Set() }
  const source = expand(pattern, lookup, x, 0)
  const re = compileExpanded(source, x.flags)
  const idx = groupIndices(source)
  const captures: Capture[] = []
  for (const n of x.names) {
    // A %{..} inside a character class is literal text there: it captures nothing.
    const index = idx.get(n.group)
    if (index !== undefined) captures.push({ name: n.field, index, type: n.type })
  }
  // User-named groups ((?P<x>...)) capture too.
  for (const [group, index] of idx)
    if (!/^g\d+$/.test(group)) captures.push({ name: group, index, type: 'str' })
  const firstOf = new Map<string, number>()
  captures.forEach((c, i) => {
    if (!firstOf.has(c.name)) firstOf.set(c.name, i)
  })
  return { re, captures, duplicates: firstOf.size < captures.length, firstOf }
}

function goBool(s: string): boolean {
  return s === '1' || s === 't' || s === 'T' || s === 'true' || s === 'TRUE' || s === 'True'
}

export function convert(s: string, type: CaptureType): string | number | boolean {
  switch (type) {
    case 'int': {
      const n = /^[+-]?\d+$/.test(s) ? Number.parseInt(s, 10) : 0
      return Number.isSafeInteger(n) ? n : 0
    }
    case 'float': {
      const n = Number(s)
      return s !== '' && Number.isFinite(n) ? n : 0
    }
    case 'bool':
      return goBool(s)
    default:
      return s
  }
}
