/**
 * DQL to an executable plan: the engine-neutral plan (planner.ts) rendered by the engine's
 * dialect (duckdb/render.ts, clickhouse/render.ts). The result keeps both: the query plan for
 * what the answer means (its series, columns, paging, post steps), the SQL for the engine. A
 * renderer may move a step its engine cannot express into the plan's post steps.
 */
import { chIdent } from '../store/clickhouse/sql.js'
import type { QueryParam, StorageEngine } from '../store/engine.js'
import { renderClickHouse } from './clickhouse/render.js'
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

/** What compiling needs of the engine: its dialect and how it names a table. */
export type Dialect = Pick<StorageEngine, 'dialect' | 'tableRef'>

type Renderer = (
  q: QueryPlan,
  e: Dialect,
  ws: string,
) => { sql: string; params: QueryParam[]; plan?: QueryPlan }

/** Each dialect's renderer of a plan to one SQL statement and its parameters. */
const RENDERERS: Record<StorageEngine['dialect'], Renderer> = {
  // DuckDB's renderer types its parameters as DuckDB values; it only ever adds scalars.
  duckdb: (q) => renderDuckDb(q) as { sql: string; params: QueryParam[] },
  // A table without rows yet has no reference; such a query is never run (execute.ts).
  clickhouse: (q, e, ws) => renderClickHouse(q, (t) => e.tableRef(ws, t) ?? chIdent(t)),
}

export function compile(engine: Dialect, input: CompileInput): Plan {
  const render = RENDERERS[engine.dialect]
  const planned = planQuery(input)
  const { sql, params, plan } = render(planned, engine, input.workspaceId)
  const query = plan ?? planned
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
