/** The parsed form of one DQL statement. Names keep their case; positions point into the text. */
import type { Category } from '../../shared/category.js'

export type Literal = string | number | boolean | null

export type Expr =
  | { op: 'and' | 'or'; left: Expr; right: Expr }
  | { op: 'not'; expr: Expr }
  | { op: 'cmp'; column: string; cmp: '=' | '!=' | '<' | '<=' | '>' | '>='; value: Literal }
  | { op: 'in'; column: string; values: Literal[]; negate: boolean }
  | { op: 're' | 'match'; column: string; pattern: string; negate: boolean }

export type ArithOp = '+' | '-' | '*' | '/' | '%'

/**
 * An expression of the select list: a field, a number or string argument, a call (aggregate,
 * series or math function, by name as written) or arithmetic. `pos` points at its first token.
 */
export type SelExpr =
  | { kind: 'field'; name: string; pos: number }
  | { kind: 'number'; value: number; pos: number }
  | { kind: 'string'; value: string; pos: number }
  | { kind: 'call'; name: string; args: SelExpr[]; pos: number }
  | { kind: 'binary'; op: ArithOp; left: SelExpr; right: SelExpr; pos: number }

export interface SelectItem {
  expr: SelExpr
  alias: string | null
}

/** A bound of a time range: milliseconds before now, or an absolute Unix time in ms. */
export type TimePoint = { relativeMs: number } | { absoluteMs: number }

export interface TimeExpr {
  start: TimePoint | null
  end: TimePoint | null
  intervalMs: number | null
  /** The rollup function as written (`avg`, `p99`, `rate`) and its position, or null. */
  rollup: { name: string; pos: number } | null
}

/** ORDER BY and SORDER BY items name time, an alias, a BY tag or a select expression's text. */
export interface OrderItem {
  column: string
  desc: boolean
}

export interface Query {
  category: Category
  /** The source as written: a name, `*`, or `re('..')` (then `sourceRe` holds the pattern). */
  source: string
  /** Read every source whose name matches this pattern (`*` is `.*`); null: `source` alone. */
  sourceRe: string | null
  /** The storage index (`L::index::source`, `L[index]::source`), or null. */
  index: string | null
  /** Null means every column. */
  select: SelectItem[] | null
  where: Expr | null
  time: TimeExpr | null
  by: string[]
  /** HAVING: comparisons whose `column` is an output's name or select expression text. */
  having: Expr | null
  orderBy: OrderItem[]
  limit: number | null
  offset: number | null
  sorderBy: OrderItem[]
  slimit: number | null
  soffset: number | null
}
