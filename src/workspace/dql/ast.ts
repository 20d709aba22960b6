/** The parsed form of one DQL statement. Names keep their case; positions point into the text. */
import type { Category } from '../../shared/category.js'

export type Literal = string | number | boolean | null

export type Expr =
  | { op: 'and' | 'or'; left: Expr; right: Expr }
  | { op: 'not'; expr: Expr }
  | { op: 'cmp'; column: string; cmp: '=' | '!=' | '<' | '<=' | '>' | '>='; value: Literal }
  | { op: 'in'; column: string; values: Literal[]; negate: boolean }
  | { op: 're' | 'match'; column: string; pattern: string; negate: boolean }

export type AggFunc = 'avg' | 'min' | 'max' | 'sum' | 'count' | 'last' | 'first'
export const AGG_FUNCS: AggFunc[] = ['avg', 'min', 'max', 'sum', 'count', 'last', 'first']

export type SelectItem =
  | { kind: 'column'; name: string; alias: string | null }
  | { kind: 'func'; func: AggFunc; arg: string; alias: string | null }

/** A bound of a time range: milliseconds before now, or an absolute Unix time in ms. */
export type TimePoint = { relativeMs: number } | { absoluteMs: number }

export interface TimeExpr {
  start: TimePoint | null
  end: TimePoint | null
  intervalMs: number | null
  rollup: string | null
}

export interface OrderItem {
  column: string
  desc: boolean
}

export interface Query {
  category: Category
  source: string
  /** Null means every column. */
  select: SelectItem[] | null
  where: Expr | null
  time: TimeExpr | null
  by: string[]
  orderBy: OrderItem[]
  limit: number | null
  offset: number | null
  slimit: number | null
  soffset: number | null
}
