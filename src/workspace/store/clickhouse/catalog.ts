/**
 * The column catalog of the point tables on ClickHouse: one database per workspace
 * (`<prefix>_w_<hex>`), one table per category and measurement under its logical name
 * (`M::cpu`, in backquotes), an Int64 `time` in ns and one Nullable column per key, partitioned
 * by day; metric tables made since the series layout are two tables (series-table.ts), and
 * `<prefix>_meta.tables` says which (a metric table made before it, with no row there, stays
 * flat and is read as before). Tag or field and the logical type live in
 * `<prefix>_meta.columns`, shared by every process; each keeps a copy in memory and reloads it
 * when a change of its own meets one made elsewhere. Invariants:
 * - DDL is idempotent: CREATE ... IF NOT EXISTS, and an ADD COLUMN refused because another
 *   process added the column first is taken as done (18.16 has no IF NOT EXISTS there).
 * - Types only widen (DOUBLE or BOOLEAN to VARCHAR, by MODIFY COLUMN), as in DuckDB.
 * - One `prepare` or `refresh` at a time per process; the data are inserted after their
 *   columns exist. Tables and columns made by another process reach this one's queries by
 *   `refresh`, which the engine runs every `CATALOG_REFRESH_MS`.
 */
import type { ColumnSpec, ColumnType, TableInfo } from '../catalog.js'
import type { SeriesParts } from '../series-layout.js'
import { categoryOf } from '../retention.js'
import { widen } from '../catalog.js'
import type { TableCatalog } from '../engine.js'
import type { TableBatch } from '../../ingest/columns.js'
import { META_TABLES } from './meta-ddl.js'
import { alreadyExists } from './layout-sql.js'
import type { TableLayout } from './layout.js'
import type { MetaTables } from './meta-tables.js'
import { SERIES_DB_SUFFIX, seriesJoinSql, seriesPhys } from './series-table.js'
import { chIdent } from './sql.js'

const COLUMNS = META_TABLES.columns
const LAYOUTS = META_TABLES.tables

export const CH_TYPES: Record<ColumnType, string> = {
  DOUBLE: 'Nullable(Float64)',
  BOOLEAN: 'Nullable(UInt8)',
  VARCHAR: 'Nullable(String)',
}

export class ClickHouseCatalog implements TableCatalog {
  private tables = new Map<string, Map<string, TableInfo>>()
  private queue: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly meta: MetaTables,
    readonly layout: TableLayout,
    readonly database: (workspaceId: string) => string,
  ) {}

  async load(): Promise<void> {
    const rows = await this.meta.select(
      COLUMNS,
      'workspace_id, tbl, col, kind, type',
      '',
      [],
      'ORDER BY workspace_id, tbl, pos, col',
    )
    const series = await this.meta.select(LAYOUTS, 'workspace_id, tbl', "layout = 'series'", [])
    const next = new Map<string, Map<string, TableInfo>>()
    const infoOf = (ws: string, tbl: string) => {
      let m = next.get(ws)
      if (!m) next.set(ws, (m = new Map()))
      let info = m.get(tbl)
      if (!info) m.set(tbl, (info = { phys: tbl, columns: [], byName: new Map(), parts: null }))
      return info
    }
    for (const [ws, tbl] of series as string[][]) infoOf(ws, tbl).parts = this.parts(ws, tbl)
    for (const [ws, tbl, col, kind, type] of rows as string[][]) {
      const info = infoOf(ws, tbl)
      const phys = info.parts ? seriesPhys(col) : col
      const c = { name: col, kind: kind as ColumnSpec['kind'], type: type as ColumnType, phys }
      info.columns.push(c)
      info.byName.set(col, c)
    }
    this.tables = next
  }

  table(workspaceId: string, table: string): TableInfo | undefined {
    return this.tables.get(workspaceId)?.get(table)
  }

  tableNames(workspaceId: string): string[] {
    return [...(this.tables.get(workspaceId)?.keys() ?? [])]
  }

  allTables(): { workspace: string; table: string }[] {
    return [...this.tables].flatMap(([workspace, m]) =>
      [...m.keys()].map((table) => ({ workspace, table })),
    )
  }

  /** Reloads the catalog, after any prepare in progress (failures leave the old copy). */
  refresh(): Promise<void> {
    const next = this.queue.then(() => this.load())
    this.queue = next.catch(() => undefined)
    return next
  }

  /**
   * The table as SQL for readers: a flat table's name, or the join of a series-layout
   * table's points to its series (series-table.ts).
   */
  ref(workspaceId: string, table: string): string {
    const info = this.table(workspaceId, table)
    return info?.parts ? seriesJoinSql(info) : this.pointsRef(workspaceId, table)
  }

  /** The table rows are inserted into: a flat table, or the points of a series-layout one. */
  pointsRef(workspaceId: string, table: string): string {
    return `${chIdent(this.database(workspaceId))}.${chIdent(table)}`
  }

  /** Where the series rows of `table` are (in the series layout). */
  seriesDatabase(workspaceId: string): string {
    return `${this.database(workspaceId)}${SERIES_DB_SUFFIX}`
  }

  private parts(ws: string, table: string): SeriesParts {
    const series = `${chIdent(this.seriesDatabase(ws))}.${chIdent(table)}`
    return { points: this.pointsRef(ws, table), series }
  }

  /** The table of `batch` with every column it needs, wide enough for its values. */
  prepare(workspaceId: string, batch: TableBatch): Promise<TableInfo> {
    const next = this.queue.then(() => this.prepareNow(workspaceId, batch))
    this.queue = next.catch(() => undefined)
    return next
  }

  private async prepareNow(ws: string, batch: TableBatch): Promise<TableInfo> {
    if (!this.needs(ws, batch)) return this.table(ws, batch.table)!
    await this.load()
    const info = this.table(ws, batch.table)
    // A series-layout table with no column yet may be one another process is still making.
    if (!info || (info.parts && !info.columns.length)) await this.createTable(ws, batch.table)
    for (const spec of batch.columns) await this.ensureColumn(ws, batch.table, spec)
    await this.load()
    return this.table(ws, batch.table)!
  }

  /** Whether the catalog lacks the table, a column, or a type wide enough. */
  private needs(ws: string, batch: TableBatch): boolean {
    const info = this.table(ws, batch.table)
    if (!info) return true
    return batch.columns.some((s) => {
      const c = info.byName.get(s.name)
      return !c || widen(c.type, s.type) !== c.type
    })
  }

  private async createTable(ws: string, table: string): Promise<void> {
    const database = this.database(ws)
    await this.layout.createDatabase(database, 'points')
    const info: TableInfo = { phys: table, columns: [], byName: new Map(), parts: null }
    this.tables.set(ws, this.tables.get(ws) ?? new Map())
    this.tables.get(ws)!.set(table, info)
    if (categoryOf(table) === 'metric') {
      // Recorded first: a process that sees the table sees its layout.
      await this.meta.put(LAYOUTS, [[ws, table, 'series']])
      await this.layout.createSeriesTables(database, this.seriesDatabase(ws), table)
      info.parts = this.parts(ws, table)
      return
    }
    await this.layout.createDataTable({
      database,
      name: table,
      columns: '`time` Int64',
      partitionBy: 'toDate(intDiv(`time`, 1000000000))',
      orderBy: '`time`',
    })
  }

  private async ensureColumn(ws: string, table: string, spec: ColumnSpec): Promise<void> {
    const info = this.table(ws, table)!
    const c = info.byName.get(spec.name)
    // In the series layout a tag is text in the series table (its value is hashed as text).
    const kind = c?.kind ?? spec.kind
    const inSeries = info.parts !== null && kind === 'tag'
    const db = inSeries ? this.seriesDatabase(ws) : this.database(ws)
    const alter = (change: string) => this.layout.alterDataTable(db, table, change)
    const phys = info.parts ? seriesPhys(spec.name) : spec.name
    if (inSeries && spec.type !== 'VARCHAR') spec = { ...spec, type: 'VARCHAR' }
    if (!c) {
      try {
        await alter(`ADD COLUMN ${chIdent(phys)} ${CH_TYPES[spec.type]}`)
      } catch (e) {
        if (!alreadyExists(e)) throw e
        // Another process added it first: its record says tag or field, and the type.
        await this.load()
        if (this.table(ws, table)?.byName.has(spec.name)) return this.ensureColumn(ws, table, spec)
      }
      const pos = info.columns.length
      await this.meta.put(COLUMNS, [[ws, table, spec.name, pos, spec.kind, spec.type]])
      // Kept in the working copy at once, so the next new column of the batch comes after it.
      const added = { ...spec, phys }
      info.columns.push(added)
      info.byName.set(spec.name, added)
      return
    }
    const type = widen(c.type, spec.type)
    if (type === c.type) return
    await alter(`MODIFY COLUMN ${chIdent(phys)} ${CH_TYPES[type]}`)
    const pos = info.columns.indexOf(c)
    await this.meta.put(COLUMNS, [[ws, table, spec.name, pos, c.kind, type]])
  }
}
