/**
 * `highlight` for pattern filters (`= match('..')`, case-insensitive, and `= re('..')`): each
 * output column that such a filter tests gets, per row, its value with every match wrapped in
 * `<em>`..`</em>`, the convention of the search engines the hosted DQL runs on. Engine-neutral:
 * it runs over the rows an engine returned, with the JavaScript engine of the patterns (already
 * checked to compile). Negated patterns (`!= match(..)`, under NOT) match nothing to mark.
 */
import type { Expr } from './ast.js'
import type { HighlightRule, PlanOutput } from './plan.js'

export const PRE_TAG = '<em>'
export const POST_TAG = '</em>'

/** The pattern filters that can mark a value: not negated, not under NOT. */
function positivePatterns(
  e: Expr | null,
  out: { column: string; re: string; caseless: boolean }[],
) {
  if (!e) return out
  if (e.op === 'and' || e.op === 'or') {
    positivePatterns(e.left, out)
    positivePatterns(e.right, out)
  } else if ((e.op === 'match' || e.op === 're') && !e.negate)
    out.push({ column: e.column, re: e.pattern, caseless: e.op === 'match' })
  return out
}

/** Rules for the outputs that show a pattern-tested column as it is (not aggregated). */
export function highlightRules(outputs: PlanOutput[], filters: (Expr | null)[]): HighlightRule[] {
  const patterns = filters.flatMap((f) => positivePatterns(f, []))
  const rules: HighlightRule[] = []
  outputs.forEach((o, index) => {
    if (o.kind !== 'column') return
    for (const p of patterns)
      if (p.column === o.column) rules.push({ output: index, name: o.name, ...p })
  })
  return rules
}

/** The value with each non-empty match wrapped, or null when nothing matches. */
export function mark(value: string, re: RegExp): string | null {
  let out = ''
  let last = 0
  re.lastIndex = 0
  for (let m = re.exec(value); m; m = re.exec(value)) {
    if (m[0] === '') {
      re.lastIndex++
      continue
    }
    out += `${value.slice(last, m.index)}${PRE_TAG}${m[0]}${POST_TAG}`
    last = m.index + m[0].length
  }
  return last === 0 && out === '' ? null : out + value.slice(last)
}

/** Per row of `values` (`[time, ...outputs]`): `{column: [marked value]}` for each match. */
export function highlightRows(
  rules: HighlightRule[],
  values: unknown[][],
): Record<string, string[]>[] {
  const compiled = rules.map((r) => ({ r, re: new RegExp(r.re, r.caseless ? 'gi' : 'g') }))
  return values.map((row) => {
    const marks: Record<string, string[]> = {}
    for (const { r, re } of compiled) {
      const v = row[1 + r.output]
      if (typeof v !== 'string') continue
      const marked = mark(v, re)
      if (marked !== null) (marks[r.name] ??= []).push(marked)
    }
    return marks
  })
}
