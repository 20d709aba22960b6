/**
 * The reference's value checks and their failure texts, word for word (they are shown to users
 * and matched by tools). Regular expressions are RE2, matched in linear time.
 */
import { compileLinear } from '../pipeline/regex/linear.js'
import type { NumberOpt, StringOpt, Verdict } from './types.js'

function matches(pattern: string, val: string): boolean {
  return compileLinear(pattern).exec(val) !== null
}

/** The first failing condition of `o` on `val`, or null when all hold. */
export function checkString(o: StringOpt, val: string, prompt: string): string | null {
  if (o.is && val !== o.is) return `${prompt}: expect to be \`${o.is}', got \`${val}'`
  if (o.is_not && val === o.is_not) return `${prompt}: shoud not be ${o.is_not}`
  if (o.match_regex && !matches(o.match_regex, val))
    return `${prompt}: regex \`${o.match_regex}\` match \`${val}' failed`
  if (o.not_match_regex && matches(o.not_match_regex, val))
    return `${prompt}: regex \`${o.not_match_regex}' should not match \`${val}'`
  if (o.contains && !val.includes(o.contains))
    return `${prompt}: do not contains \`${o.contains}', got \`${val}'`
  if (o.not_contains && val.includes(o.not_contains))
    return `${prompt}: should not contains \`${o.not_contains}', got \`${val}'`
  return null
}

/** Go's %v of a float64: integers without a decimal point. */
const num = (v: number) => String(v)

export function checkNumber(o: NumberOpt, val: number): string | null {
  const t = o.target ?? 0
  switch (o.op) {
    case 'eq':
      return val === t ? null : `${num(val)} is not equal to target ${num(t)}`
    case 'lt':
      return val < t ? null : `${num(val)} is greater equal than target ${num(t)}`
    case 'leq':
      return val <= t ? null : `${num(val)} is greater than target ${num(t)}`
    case 'gt':
      return val > t ? null : `${num(val)} is less than target ${num(t)}`
    case 'geq':
      return val >= t ? null : `${num(val)} is less equal than target ${num(t)}`
    default:
      return null
  }
}

/** Adds one check's outcome to a verdict. */
export function tally(v: Verdict, failure: string | null): void {
  if (failure === null) v.passed = true
  else v.reasons.push(failure)
}

/** Every regular expression of the options compiles (a task check, before running). */
export function compileOpts(opts: StringOpt[] | undefined): void {
  for (const o of opts ?? []) {
    if (o.match_regex) compileLinear(o.match_regex)
    if (o.not_match_regex) compileLinear(o.not_match_regex)
  }
}
