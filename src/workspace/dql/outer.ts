/**
 * Outer functions: `f(dql='<query>' [, n | size=n]).g().h(n)`, the query also as the first
 * positional string (quoted with ', " or backquotes). The inner query runs as any other; then
 * each function, left to right, transforms every value column of every series (transform.ts:
 * derivative, non_negative_derivative, difference, non_negative_difference, moving_average
 * (size), cumsum, rate, irate, abs, log10, log2; rows without any value dropped) or reduces it
 * to one row (outer-reduce.ts). Engine-neutral: it only reads answers.
 */
import { Cursor } from './cursor.js'
import { queryError, tokenize } from './lexer.js'
import type { SeriesFunc } from './plan.js'
import { applySeriesFunc } from './transform.js'
import { SERIES_FUNCS } from './outputs.js'
import { reduceRows, REDUCERS, type Reducer } from './outer-reduce.js'

const OUTER: SeriesFunc[] = [...SERIES_FUNCS, 'abs', 'log10', 'log2']

interface Step {
  func: SeriesFunc | Reducer
  param?: number
}

const NAMES: string[] = [...OUTER, ...REDUCERS]

export const isOuter = (text: string) => /^\s*\w+\s*\(\s*(dql\s*=|['"`])/i.test(text)

function step(c: Cursor, dql: { text: string | null }): Step {
  const tok = c.peek()
  const func = c.name('a function').toLowerCase() as Step['func']
  if (!NAMES.includes(func))
    throw queryError(
      tok.pos,
      `unknown outer function ${tok.text}(); use one of ${NAMES.join(', ')}`,
    )
  const s: Step = { func }
  c.expect('(')
  while (!c.isPunct(')')) {
    if (c.isPunct(',')) c.next()
    if (c.peek().type === 'ident' && c.t[c.i + 1].text === '=') {
      const key = c.next().text.toLowerCase()
      c.next()
      const v = c.next()
      if (key === 'dql' && (v.type === 'string' || v.type === 'quoted')) dql.text = v.text
      else if (v.type === 'number') s.param = v.value
      else throw queryError(v.pos, `unexpected argument ${key}`)
    } else if (c.peek().type === 'number') s.param = c.next().value
    else if (['string', 'quoted'].includes(c.peek().type) && dql.text === null)
      dql.text = c.next().text
    else c.fail("dql='...' or a number")
  }
  c.next()
  if (func === 'moving_average' && !(Number.isInteger(s.param) && s.param! >= 1))
    throw queryError(tok.pos, 'moving_average needs size=n, a whole n of at least 1')
  return s
}

export function parseOuter(text: string): { dql: string; steps: Step[] } {
  const c = new Cursor(tokenize(text))
  const dql = { text: null as string | null }
  const steps = [step(c, dql)]
  while (c.isPunct('.')) {
    c.next()
    steps.push(step(c, dql))
  }
  if (c.peek().type !== 'eof') c.fail('end of query or .function()')
  if (dql.text === null) throw queryError(0, "an outer function needs dql='<query>'")
  return { dql: dql.text, steps }
}

export function applyOuter<S extends { values: unknown[][] }>(series: S[], steps: Step[]): S[] {
  return series
    .map((s) => {
      let rows = [...s.values].sort((a, b) => (a[0] as number) - (b[0] as number))
      for (const st of steps) {
        if ((REDUCERS as readonly string[]).includes(st.func)) {
          rows = reduceRows(st.func as Reducer, rows)
          continue
        }
        const times = rows.map((r) => r[0] as number)
        const cols = (rows[0]?.length ?? 1) - 1
        const outs = Array.from({ length: cols }, (_, k) =>
          applySeriesFunc(
            st.func as SeriesFunc,
            times,
            rows.map((r) => r[1 + k]),
            st.param,
          ),
        )
        rows = rows
          .map((r, i) => [r[0], ...outs.map((o) => o[i])])
          .filter((r) => r.slice(1).some((v) => v !== undefined))
          .map((r) => r.map((v) => v ?? null))
      }
      return { ...s, values: rows.reverse() }
    })
    .filter((s) => s.values.length > 0)
}
