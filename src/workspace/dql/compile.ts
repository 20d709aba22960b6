/**
 * DQL to an executable plan: the engine-neutral plan (planner.ts) rendered by the DuckDB
 * dialect (duckdb/render.ts). The result keeps both: the query plan for what the answer means
 * (its series, columns, paging), the SQL for the engine.
 */
import type { DuckDBValue } from '@duckdb/node-api'
import { renderDuckDb } from './duckdb/render.js'
import type { QueryPlan } from './plan.js'
import { planQuery, type PlanInput } from './planner.js'
import type { Range } from './time.js'

export { DEFAULT_RAW_LIMIT, DEFAULT_SLIMIT } from './planner.js'

export interface Plan {
  sql: string
  params: DuckDBValue[]
  by: string[]
  columns: string[]
  range: Range
  /** Rows end with their row id (search-after.ts); the page's cursor is the full sort key. */
  rowId: boolean
  query: QueryPlan
}

export type CompileInput = PlanInput

export function compile(input: CompileInput): Plan {
  const query = planQuery(input)
  const { sql, params } = renderDuckDb(query)
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
