/**
 * Literal patterns in a Platypus script are checked when it compiles, so a pattern RE2 cannot
 * express (a backreference, lookaround) is a compile error at its own line and column, not a
 * run error on every point. Patterns built at run time are checked when they are used.
 */
import { compileLinear, PatternError } from '../regex/linear.js'
import type { Expr } from './ast.js'
import { PlSyntaxError } from './lexer.js'

/** Parameters holding a pattern; `grok` ones may contain `%{NAME:field:type}` references. */
const PATTERN_PARAMS: Record<string, [param: string, grok: boolean][]> = {
  grok: [['pattern', true]],
  add_pattern: [['pattern', true]],
  replace: [['regex', false]],
  match: [['pattern', false]],
  kv_split: [['field_split_pattern', false]],
}

const REF = /%\{\w+(?::[\w.@\-[\]]+)?(?::\w+)?\}/g

/** A reference becomes a group of the same length, so offsets still point into the literal. */
function withoutRefs(pattern: string): string {
  return pattern.replace(REF, (m) => `(?:${'x'.repeat(m.length - 4)})`)
}

/** Index in `src` of the character at `offset` in the value of the string literal at `at`. */
export function literalIndex(src: string, at: number, offset: number): number {
  const q = src[at]
  if (src.startsWith(q.repeat(3), at)) return at + 3 + offset
  let i = at + 1
  for (let v = 0; v < offset && i < src.length;) {
    if (src[i] !== '\\') {
      i++
      v++
      continue
    }
    const e = src[i + 1]
    const width = e === 'u' ? 6 : e === 'x' ? 4 : 2
    // An unknown escape (`\d`) keeps both characters in the value.
    if (width === 2 && !'ntr\\"\'0bfva'.includes(e) && offset - v >= 1) {
      if (offset - v === 1) return i + 1
      v += 2
    } else v++
    i += width
  }
  return i
}

function positionAt(src: string, index: number): { pos: number; ln: number; col: number } {
  let ln = 1
  let lineStart = 0
  for (let i = 0; i < index && i < src.length; i++)
    if (src[i] === '\n') {
      ln++
      lineStart = i + 1
    }
  return { pos: index, ln, col: index - lineStart + 1 }
}

function argOf(call: Extract<Expr, { t: 'call' }>, params: string[], name: string): Expr | null {
  const at = params.indexOf(name)
  const named = call.named.find(([n]) => n === name)
  return named ? named[1] : (call.args[at] ?? null)
}

/** Throws a positioned PlSyntaxError for the first literal pattern that does not compile. */
export function checkPatterns(call: Extract<Expr, { t: 'call' }>, params: string[], src: string) {
  for (const [param, grok] of PATTERN_PARAMS[call.name] ?? []) {
    const e = argOf(call, params, param)
    if (e?.t !== 'lit' || typeof e.value !== 'string') continue
    try {
      compileLinear(grok ? withoutRefs(e.value) : e.value)
    } catch (err) {
      if (!(err instanceof PatternError)) throw err
      const p = positionAt(src, err.offset < 0 ? e.pos : literalIndex(src, e.pos, err.offset))
      throw new PlSyntaxError(`${call.name}: ${err.message}`, p.pos, p.ln, p.col)
    }
  }
}
