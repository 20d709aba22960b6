/**
 * Compiles parsed filter conditions into a predicate over points: true means the point matches
 * a blacklist condition and is to be dropped.
 *
 * What a key names, as in the reference agent: a tag or field of the point (tags first), else
 * a virtual key: `category`, and by category `source` (logging, network, keyevent, rum),
 * `measurement` (metric) or `class` (object, custom_object), each the point's name.
 *
 * Comparison rules, as the reference's: a missing key equals only nil (so `k != 'x'` holds when
 * `k` is absent); `in` holds when a value equals the key's value (an absent key when nil is
 * listed), `notin` when none does; `match` when a regex matches a string value, `notmatch`
 * when one does not; `<`, `>` compare numbers with numbers and strings with strings (bytes,
 * booleans and mixed kinds never compare). Unlike the reference, an integer and a float
 * literal compare by value (`{ code = 200 }` matches a float field 200.0).
 */
import { nameKey, type Category } from '../category.js'
import { Kind, type Point } from '../point.js'
import { parseFilter, type Expr, type Literal } from './parser.js'

type Val = string | number | bigint | boolean | null | undefined
type Get = (key: string) => Val

export type PointPredicate = (p: Point) => boolean

function getter(p: Point, category: Category, named: string | undefined): Get {
  return (key) => {
    for (const t of p.tags) if (t.key === key) return t.value
    for (const f of p.fields) {
      if (f.key !== key) continue
      if (f.kind === Kind.BYTES || f.kind === Kind.ARRAY) return null
      return f.value as Val
    }
    if (key === 'category') return category
    if (named === key) return p.name
    return undefined
  }
}

const isNum = (v: unknown): v is number | bigint => typeof v === 'number' || typeof v === 'bigint'

function equals(v: Val, lit: Literal): boolean {
  if (v === undefined) return lit.kind === 'nil'
  switch (lit.kind) {
    case 'nil':
      return false
    case 'regex':
      return typeof v === 'string' && lit.value.test(v)
    case 'number':
      return isNum(v) && Number(v) === lit.value
    default:
      return v === lit.value
  }
}

function order(v: Val, op: string, lit: Literal): boolean {
  let c: number
  if (isNum(v) && lit.kind === 'number') c = Number(v) - lit.value
  else if (typeof v === 'string' && lit.kind === 'string')
    c = v < lit.value ? -1 : v > lit.value ? 1 : 0
  else return false
  return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0
}

const asRegex = (l: Literal): RegExp | null =>
  l.kind === 'regex' ? l.value : l.kind === 'string' ? new RegExp(l.value) : null

function compile(e: Expr): (get: Get) => boolean {
  switch (e.kind) {
    case 'and': {
      const [a, b] = [compile(e.left), compile(e.right)]
      return (g) => a(g) && b(g)
    }
    case 'or': {
      const [a, b] = [compile(e.left), compile(e.right)]
      return (g) => a(g) || b(g)
    }
    case 'compare': {
      const { key, op, value } = e
      if (op === '=') return (g) => equals(g(key), value)
      if (op === '!=') return (g) => !equals(g(key), value)
      return (g) => order(g(key), op, value)
    }
    case 'list': {
      const { key, values } = e
      if (e.op === 'in') return (g) => values.some((l) => equals(g(key), l))
      if (e.op === 'notin') return (g) => !values.some((l) => equals(g(key), l))
      const res = values.map(asRegex).filter((r): r is RegExp => r !== null)
      const want = e.op === 'match'
      return (g) => {
        const v = g(key)
        return typeof v === 'string' && res.some((r) => r.test(v) === want)
      }
    }
  }
}

/**
 * One predicate for a category's filter strings: a point is dropped when any group of any
 * string holds. Throws FilterSyntaxError for a string that does not parse.
 */
export function compileFilters(sources: readonly string[], category: Category): PointPredicate {
  const groups = sources.flatMap((s) => parseFilter(s)).map((g) => g.map(compile))
  const named = nameKey(category)
  return (p) => {
    const get = getter(p, category, named)
    return groups.some((g) => g.every((c) => c(get)))
  }
}
