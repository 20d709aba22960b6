/**
 * Regular expressions where a script's pattern meets its data: RE2 syntax and semantics
 * (the reference agent uses Go's RE2), matched in time linear in the input by re2js. V8's
 * backtracking engine can run for hours on a crafted line and cannot be interrupted, so no
 * user pattern ever reaches it.
 *
 * Invariants:
 * - Every match costs O(pattern size x input length); no pattern or input can stall a worker.
 * - A pattern RE2 cannot express (backreferences, lookaround) fails to compile with an offset.
 */
import { RE2JS, RE2JSException, RE2JSSyntaxException, type Matcher } from 're2js'
import { FerryError } from '../../errors.js'
import { describeUnsupported, findUnsupported } from './unsupported.js'

export interface LinearFlags {
  ignoreCase?: boolean
  multiline?: boolean
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

  constructor(
    readonly source: string,
    private readonly re: RE2JS,
  ) {
    this.groupCount = re.groupCount()
  }

  /** Anywhere in `s` (the DFA, no captures: the cheapest question). */
  test(s: string): boolean {
    return this.re.test(s)
  }

  /** The leftmost-first match and its groups, or null. */
  exec(s: string): Groups | null {
    // The DFA answers "no" several times faster than the capturing matcher finds out; lines
    // of one kind come in runs, so after a match the matcher is tried directly.
    if (!this.hot && !this.re.test(s)) return null
    const m = this.re.matcher(s)
    this.hot = m.find()
    return this.hot ? groupsOf(m, this.groupCount) : null
  }

  /** Every match replaced; `$1`, `$<name>`, `$&` and `$$` as in String.prototype.replace. */
  replaceAll(s: string, replacement: string): string {
    if (!this.re.test(s)) return s
    return this.re.matcher(s).replaceAll(replacement)
  }

  /** `s` cut at every match (like String.prototype.split, trailing empty parts kept). */
  split(s: string): string[] {
    return this.re.split(s, -1)
  }
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
    return new LinearRegex(source, RE2JS.compile(source, flagBits(flags)))
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
