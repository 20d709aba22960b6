/**
 * The fast road for RE2 patterns that mean the same to V8: V8's own engine, which backtracks
 * (fast on ordinary lines) but, with the flags set below, re-runs a match in its linear-time
 * engine once it has backtracked too much. That fallback exists only for regular expressions
 * the linear engine can run, so a pattern takes this road only after V8 has compiled it with
 * the `l` (linear) flag; anything else stays on re2js. So every match is linear-time either way,
 * and crafted input costs at most the backtracks before the fallback.
 *
 * Translation is deliberately narrow: a pattern is taken only when every construct in it means
 * the same in both syntaxes (RE2's `\s` is ASCII whitespace and its `.` stops only at `\n`, so
 * both are spelled out; named groups get JS's spelling); anything else returns null and re2js
 * runs it. Known remaining differences: case folding beyond ASCII under `(?i)`-free ignoreCase,
 * and `.` matching one UTF-16 unit of a character outside the BMP where RE2 takes the whole.
 */
import v8 from 'node:v8'

/** Backtracks a match may make before V8 re-runs it in linear time. */
export const BACKTRACKS_BEFORE_FALLBACK = 10_000

v8.setFlagsFromString('--enable-experimental-regexp-engine')
v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks')
v8.setFlagsFromString(`--regexp-backtracks-before-fallback=${BACKTRACKS_BEFORE_FALLBACK}`)

/** Whether this V8 honours the flags (else every pattern stays on re2js). */
const AVAILABLE = (() => {
  try {
    // The `l` flag exists only with the flag above; a literal would not pass the linter.
    const linear = 'l'
    new RegExp('a', linear)
    return true
  } catch {
    return false
  }
})()

const RE2_SPACE = '\\t\\n\\f\\r '

/**
 * RE2 constructs with no JS spelling or another meaning in JS (`\A`, `\z`, `\Q..\E`, `\C`,
 * Unicode classes, `\x{..}`, `\a`, octal, inline flags, POSIX classes, and `[]a]` / `[^]a]`,
 * where RE2 takes the first `]` literally and JS ends the class): leave those to re2js.
 */
const FOREIGN = /\\[AzCQEpPax0-9]|\(\?[imsU-]|\[\[:|\[\]|\[\^\]/

/** A named group's opening, `(?P<name>` or `(?<name>`: its length, or 0. */
function namedGroupAt(source: string, i: number): number {
  const m = /^\(\?P?<\w+>/.exec(source.slice(i, i + 40))
  return m ? m[0].length : 0
}

/**
 * The JS source for an RE2 pattern, or null when the two could disagree. `unnamed`: named
 * groups become plain ones (same numbers), so a match builds no `groups` object.
 */
export function toJsSource(source: string, unnamed = false): string | null {
  if (FOREIGN.test(source)) return null
  let out = ''
  let inClass = false
  for (let i = 0; i < source.length; i++) {
    const c = source[i]
    if (c === '\\') {
      const n = source[i + 1]
      if (n === 's') out += inClass ? RE2_SPACE : `[${RE2_SPACE}]`
      else if (n === 'S') {
        if (inClass) return null
        out += `[^${RE2_SPACE}]`
      } else if ((n === 'b' || n === 'B') && inClass) return null
      else out += c + (n ?? '')
      i++
      continue
    }
    if (c === '[' && !inClass) inClass = true
    else if (c === ']' && inClass && source[i - 1] !== '[') inClass = false
    const named = !inClass && c === '(' && unnamed ? namedGroupAt(source, i) : 0
    if (named) {
      out += '('
      i += named - 1
      continue
    }
    if (!inClass && source.startsWith('(?P<', i)) {
      out += '(?<'
      i += 3
      continue
    }
    // RE2's `.` stops only at \n; V8's also at \r, \u2028 and \u2029.
    out += c === '.' && !inClass ? '[^\\n]' : c
  }
  return out
}

/** A V8 regular expression proven to have a linear-time fallback, or null. */
export function v8Linear(source: string, flags: string): RegExp | null {
  if (!AVAILABLE) return null
  const js = toJsSource(source)
  if (js === null) return null
  try {
    new RegExp(js, `${flags}l`)
    return new RegExp(js, flags)
  } catch {
    return null
  }
}

/**
 * `re` (from v8Linear) with its groups unnamed, numbered as before: the same expression, so
 * it keeps the linear fallback, and a match builds no `groups` object.
 */
export function v8Unnamed(source: string, re: RegExp): RegExp {
  const js = toJsSource(source, true)
  if (js === null) return re
  try {
    return new RegExp(js, re.flags)
  } catch {
    return re
  }
}
