/**
 * The storage boundary of the workspace: what any engine holding points must offer, so a
 * second engine (a remote columnar SQL database) can stand beside DuckDB. The contract, tested
 * once for every implementation (test/unit/workspace/engine-contract.ts):
 * - `ingest` answers only after the body is durable; a body whose package id the workspace
 *   already stored (within the dedupe window) is answered `duplicate` and not stored again; a
 *   body that cannot be stored fails alone, never its neighbours of the same commit.
 * - Names are case-sensitive: `Host` and `host` are two columns, `CPU` and `cpu` two tables.
 * - `catalog` describes every table of a workspace (columns, tag or field, type), and
 *   `tableRef` names a table in the engine's SQL dialect, for the queries DQL plans.
 * - `query` throws `queryInvalid` for a statement the engine refuses as malformed or mistyped
 *   (the query's fault), any other FerryError for the engine's own failures.
 * - `objects` lists the newest state of each object of an object table (objects.ts).
 * - `retain` deletes rows older than their category's retention (the workspace's own for that
 *   category when one is set in `meta.retention_overrides`, else the global key) and says how
 *   many.
 */
import type { Rows } from './db.js'
export type { Row, Rows } from './db.js'
import type { TableInfo } from './catalog.js'
import type { RetentionConfig, SweepResult } from './retention.js'
import type { WriteRequest, WriteResult } from './write-request.js'
import type { ObjectPage, ObjectQuery } from './objects.js'

export type QueryParam = string | number | bigint | boolean | null

export interface TableCatalog {
  tableNames(workspaceId: string): string[]
  table(workspaceId: string, table: string): TableInfo | undefined
}

export interface StorageEngine {
  /** The SQL dialect queries must be planned for. */
  readonly dialect: 'duckdb' | 'clickhouse'
  readonly catalog: TableCatalog
  /** One decoded body of one workspace, stored durably (group-committed with others). */
  ingest(req: WriteRequest): Promise<WriteResult>
  /** The table as the dialect names it in a query, or undefined when it has no rows yet. */
  tableRef(workspaceId: string, table: string): string | undefined
  /** A planned query in the engine's dialect, interrupted after `timeoutMs`. */
  query(sql: string, params?: QueryParam[], timeoutMs?: number): Promise<Rows>
  /** The newest state of each object of an object table, filtered and paged. */
  objects(q: ObjectQuery): Promise<ObjectPage>
  retain(cfg: RetentionConfig, nowMs?: number): Promise<SweepResult[]>
  /** Lets queued writes commit, then closes. */
  close(): Promise<void>
}
