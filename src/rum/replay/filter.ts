/**
 * `[rum] replay_filter_rules`: conditions like `{ app_id = 'x' and env = 'prod' }` (`=` and
 * `!=`, joined by `and`); an upload whose form values match any rule is dropped.
 */
type Cond = { key: string; eq: boolean; value: string }

export function parseRules(rules: string[]): Cond[][] {
  return rules.map((r) =>
    r
      .replace(/^\s*\{|\}\s*$/g, '')
      .split(/\s+and\s+/i)
      .map((c) => /^\s*(\w+)\s*(!?=)\s*'([^']*)'\s*$/.exec(c))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => ({ key: m[1], eq: m[2] === '=', value: m[3] })),
  )
}

export function matchesAny(rules: Cond[][], values: Map<string, string>): boolean {
  return rules.some(
    (conds) => conds.length > 0 && conds.every((c) => (values.get(c.key) === c.value) === c.eq),
  )
}
