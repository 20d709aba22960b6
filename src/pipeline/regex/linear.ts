/**
 * Regular expressions where a script's pattern meets its data: RE2 syntax and semantics
 * (the reference agent uses Go's RE2), matched in time linear in the input. V8's plain
 * backtracking can run for hours on a crafted line and cannot be interrupted, so a user pattern
 * reaches V8 only where V8 proves it can finish it in linear time (v8-linear.ts); every other
 * pattern runs on re2js.
 *
 * Invariants:
 * - Every match costs O(pattern size x input length) (on V8, after a bounded number of
 *   backtracks); no pattern or input can stall a worker.
 * - Every pattern is checked by RE2 itself: one RE2 cannot express (backreferences,
 *   lookaround) fails to compile with an offset, whichever engine would have run it.
 */
import { RE2JS, RE2JSException, RE2JSSyntaxException, type Matcher } from 're2js'
import { FerryError } from '../../errors.js'
import { describeUnsupported, findUnsupported } from './unsupported.js'
import { v8Linear, v8Unnamed } from './v8-linear.js'

export interface LinearFlags {
  ignoreCase?: boolean
  multiline?: boolean
  /** Force an engine (tests compare the two); by default V8 where it is proven linear. */
  engine?: 're2js'
}

/** The result of `exec`: index 0 the whole match, then each group (undefined: no part). */
export type Groups = (string | undefined)[]

/** A compile error: the message and the offset in the pattern it refers to (-1 unknown). */
export class PatternError extends FerryError {
  constructor(
    readonly reason: string,
    readonly offset: number,
  ) {
    super('badRequest', offset >= 0 ? `${reason} (at offset ${offset})` : reason)
  }
}

export class LinearRegex {
  readonly groupCount: number
  /** The last exec matched: the next input likely does too, so the DFA pre-check is skipped. */
  private hot = false

  /** The same pattern with the global flag, for replace and split on V8. */
  private readonly global: RegExp | null

  /**
   * V8's compilation with its groups unnamed (same numbers), for exec: a match then builds no
   * `groups` object. Compiled at the first exec (undefined until then).
   */
  private plain: RegExp | undefined

  constructor(
    readonly source: string,
    private readonly re: RE2JS,
    /** V8's compilation, when it is proven linear (v8-linear.ts). */
    private readonly js: RegExp | null = null,
  ) {
    this.groupCount = re.groupCount()
    this.global = js ? new RegExp(js.source, `${js.flags}g`) : null
  }

  /** Which engine runs it, for tests and the debug API. */
  get engine(): 'v8' | 're2js' {
    return this.js ? 'v8' : 're2js'
  }

  /** Anywhere in `s` (the DFA, no captures: the cheapest question). */
  test(s: string): boolean {
    return this.js ? this.js.test(s) : this.re.test(s)
  }

  /** The leftmost-first match and its groups, or null. */
  exec(s: string): Groups | null {
    const m = this.groups(s)
    // A plain array of the groups: V8's match array carries index and input besides.
    return m && this.js ? m.slice() : m
  }

  /**
   * As exec, without the copy: the array may carry other properties (V8's index and input);
   * for callers that only read the groups by index (grok, once per line).
   */
  groups(s: string): Groups | null {
    if (this.js) {
      this.plain ??= v8Unnamed(this.source, this.js)
      return this.plain.exec(s)
    }
    // The DFA answers "no" several times faster than the capturing matcher finds out; lines
    // of one kind come in runs, so after a match the matcher is tried directly.
    if (!this.hot && !this.re.test(s)) return null
    const m = this.re.matcher(s)
    this.hot = m.find()
    return this.hot ? groupsOf(m, this.groupCount) : null
  }

  /** Every match replaced; `$1`, `$<name>`, `$&` and `$$` as in String.prototype.replace. */
  replaceAll(s: string, replacement: string): string {
    if (this.global) return s.replace(this.global, replacement)
    if (!this.re.test(s)) return s
    return this.re.matcher(s).replaceAll(replacement)
  }

  /** `s` cut at every match (like String.prototype.split, trailing empty parts kept). */
  split(s: string): string[] {
    return this.global ? splitV8(this.global, s) : this.re.split(s, -1)
  }
}

/**
 * Split as re2js does (Java's rules: no captured groups spliced in, an empty match at the very
 * start skipped, trailing empty parts kept).
 */
function splitV8(re: RegExp, s: string): string[] {
  const out: string[] = []
  let from = 0
  for (const m of s.matchAll(re)) {
    if (m[0] === '' && m.index === 0) continue
    out.push(s.slice(from, m.index))
    from = m.index + m[0].length
  }
  out.push(s.slice(from))
  return out
}

function groupsOf(m: Matcher, n: number): Groups {
  const out: Groups = new Array<string | undefined>(n + 1)
  for (let i = 0; i <= n; i++) out[i] = m.group(i) ?? undefined
  return out
}

function flagBits(f: LinearFlags): number {
  return (f.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0) | (f.multiline ? RE2JS.MULTILINE : 0)
}

/** Compiles `source` (RE2 syntax); throws PatternError with the offending offset. */
export function compileLinear(source: string, flags: LinearFlags = {}): LinearRegex {
  const unsupported = findUnsupported(source)
  if (unsupported) throw new PatternError(describeUnsupported(unsupported), unsupported.offset)
  try {
    const re = RE2JS.compile(source, flagBits(flags))
    const js =
      flags.engine === 're2js'
        ? null
        : v8Linear(source, (flags.ignoreCase ? 'i' : '') + (flags.multiline ? 'm' : ''))
    return new LinearRegex(source, re, js)
  } catch (e) {
    if (e instanceof RE2JSSyntaxException) {
      const at = e.getPattern() === null ? -1 : source.indexOf(e.getPattern()!)
      throw new PatternError(e.message, at)
    }
    if (e instanceof RE2JSException) throw new PatternError(e.message, -1)
    throw e
  }
}

const cache = new Map<string, LinearRegex>()
const CACHE_MAX = 1000

/**
 * Script arguments are the same for every point of a batch: compile each pattern once
 * (bounded cache, cleared whole when full).
 */
export function cachedLinear(source: string): LinearRegex {
  let re = cache.get(source)
  if (!re) {
    re = compileLinear(source)
    if (cache.size >= CACHE_MAX) cache.clear()
    cache.set(source, re)
  }
  return re
}
