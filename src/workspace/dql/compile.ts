/**
 * DQL to an executable plan: the engine-neutral plan (planner.ts) rendered by the engine's
 * dialect (DuckDB: duckdb/render.ts). The result keeps both: the query plan for what the answer means
 * (its series, columns, paging), the SQL for the engine.
 */
import { FerryError } from '../../errors.js'
import type { QueryParam, StorageEngine } from '../store/engine.js'
import { renderDuckDb } from './duckdb/render.js'
import type { QueryPlan } from './plan.js'
import { planQuery, type PlanInput } from './planner.js'
import type { Range } from './time.js'

export { DEFAULT_RAW_LIMIT, DEFAULT_SLIMIT } from './planner.js'

export interface Plan {
  sql: string
  params: QueryParam[]
  by: string[]
  columns: string[]
  range: Range
  /** Rows end with their row id (search-after.ts); the page's cursor is the full sort key. */
  rowId: boolean
  query: QueryPlan
}

export type CompileInput = PlanInput

/** Each dialect's renderer of a plan to one SQL statement and its parameters. */
const RENDERERS: Partial<
  Record<StorageEngine['dialect'], (q: QueryPlan) => { sql: string; params: QueryParam[] }>
> = {
  // DuckDB's renderer types its parameters as DuckDB values; it only ever adds scalars.
  duckdb: (q) => renderDuckDb(q) as { sql: string; params: QueryParam[] },
}

export function compile(dialect: StorageEngine['dialect'], input: CompileInput): Plan {
  const render = RENDERERS[dialect]
  if (!render) throw new FerryError('queryInvalid', `DQL has no renderer for the ${dialect} engine`)
  const query = planQuery(input)
  const { sql, params } = render(query)
  return {
    sql,
    params,
    by: query.groupBy,
    columns: query.outputs.map((o) => o.name),
    range: query.range,
    rowId: query.paging.tiebreak,
    query,
  }
}
