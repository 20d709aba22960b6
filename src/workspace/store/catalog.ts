/**
 * The column catalog: for every point table of every workspace, its physical name, its
 * columns in table order, whether each is a tag or a field, its type and physical name
 * (physical.ts). Mirrored in memory from `meta.tables` and `meta.columns`; all changes are
 * DDL inside the writer's transaction, and after a rollback the mirror is reloaded.
 *
 * Types only widen: DOUBLE (every number) and BOOLEAN become VARCHAR when a value of another
 * kind arrives, so no value is ever refused for its type.
 */
import type { DuckDBConnection } from '@duckdb/node-api'
import { ident, schemaName, TIME_COLUMN } from './names.js'
import { CatalogSnapshot } from './catalog-snapshot.js'
import { physicalName, takenNames } from './physical.js'
import { createParts, createView, partOf, RESERVED_COLUMNS } from './series-layout.js'
import type {
  Column,
  ColumnKind,
  ColumnSpec,
  ColumnType,
  SeriesParts,
  TableInfo,
} from './columns.js'

export type { Column, ColumnKind, ColumnSpec, ColumnType, TableInfo } from './columns.js'

export function widen(a: ColumnType, b: ColumnType): ColumnType {
  return a === b ? a : 'VARCHAR'
}

type Read = (sql: string) => Promise<unknown[][]>

export class Catalog {
  /** The writer's working copy: workspace id -> table name -> info. */
  private tables = new Map<string, Map<string, TableInfo>>()
  /** What readers see (catalog-snapshot.ts): the tables as of the last commit. */
  private readonly committed = new CatalogSnapshot()
  /** Working tables changed since the last `publish`, as `ws\u0000tbl`. */
  private readonly changed = new Set<string>()

  async load(read: Read): Promise<void> {
    this.tables = new Map()
    for (const [ws, tbl, phys, points, series] of (await read(
      'SELECT workspace_id, tbl, phys, points_phys, series_phys FROM meta.tables',
    )) as (string | null)[][])
      this.tableOrNew(ws!, tbl!, phys!, points && series ? { points, series } : null)
    const rows = await read(
      'SELECT workspace_id, tbl, col, kind, type, coalesce(phys, col) FROM meta.columns ORDER BY workspace_id, tbl, pos',
    )
    for (const [ws, tbl, col, kind, type, phys] of rows as string[][]) {
      const info = this.tableOrNew(ws, tbl, tbl, null)
      const c: Column = { name: col, kind: kind as ColumnKind, type: type as ColumnType, phys }
      info.columns.push(c)
      info.byName.set(col, c)
    }
    this.changed.clear()
    this.committed.replaceAll(this.tables)
  }

  /** Makes the working changes visible to readers; the writer calls it after COMMIT. */
  publish(): void {
    for (const key of this.changed) {
      const [ws, tbl] = key.split('\u0000')
      this.committed.set(ws, tbl, this.tables.get(ws)!.get(tbl)!)
    }
    this.changed.clear()
  }

  /** A table as of the last commit. */
  table(workspaceId: string, table: string): TableInfo | undefined {
    return this.committed.get(workspaceId, table)
  }

  tableNames(workspaceId: string): string[] {
    return [...(this.committed.byWorkspace().get(workspaceId)?.keys() ?? [])]
  }

  /** Every point table of every workspace, with its DuckDB name (and parts, if any). */
  allTables(): { workspace: string; table: string; phys: string; parts: SeriesParts | null }[] {
    const out: ReturnType<Catalog['allTables']> = []
    for (const [workspace, byTable] of this.committed.byWorkspace())
      for (const [table, info] of byTable)
        out.push({ workspace, table, phys: info.phys, parts: info.parts })
    return out
  }

  private tableOrNew(ws: string, tbl: string, phys: string, parts: SeriesParts | null): TableInfo {
    let byTable = this.tables.get(ws)
    if (!byTable) this.tables.set(ws, (byTable = new Map()))
    let info = byTable.get(tbl)
    if (!info) byTable.set(tbl, (info = { phys, columns: [], byName: new Map(), parts }))
    return info
  }

  /**
   * Creates the table (or, in the series layout, its view and two tables) under physical names
   * free in its schema, and records the choice.
   */
  private async create(
    con: DuckDBConnection,
    ws: string,
    tbl: string,
    series: boolean,
  ): Promise<TableInfo> {
    const others = [...(this.tables.get(ws)?.values() ?? [])]
    const taken = takenNames(
      others.flatMap((t) => (t.parts ? [t.phys, t.parts.points, t.parts.series] : [t.phys])),
      false,
    )
    const phys = physicalName(tbl, taken)
    const schema = ident(schemaName(ws))
    await con.run(`CREATE SCHEMA IF NOT EXISTS ${schema}`)
    let parts: SeriesParts | null = null
    if (series) {
      parts = {
        points: physicalName(`${phys}:points`, taken),
        series: physicalName(`${phys}:series`, taken),
      }
      await createParts(con, schema, parts)
      await createView(con, schema, phys, parts, [])
    } else
      await con.run(`CREATE TABLE ${schema}.${ident(phys)} (${ident(TIME_COLUMN)} BIGINT NOT NULL)`)
    await con.run(
      'INSERT INTO meta.tables (workspace_id, tbl, phys, points_phys, series_phys) VALUES ($1, $2, $3, $4, $5)',
      [ws, tbl, phys, parts?.points ?? null, parts?.series ?? null],
    )
    this.changed.add(`${ws}\u0000${tbl}`)
    return this.tableOrNew(ws, tbl, phys, parts)
  }

  /**
   * Creates the table or adds and widens columns so that `wanted` fits; runs inside the
   * caller's transaction. Returns the table's columns afterwards.
   */
  async ensure(
    con: DuckDBConnection,
    ws: string,
    tbl: string,
    wanted: ColumnSpec[],
    series = false,
  ): Promise<TableInfo> {
    const info = this.tables.get(ws)?.get(tbl) ?? (await this.create(con, ws, tbl, series))
    const schema = ident(schemaName(ws))
    const target = (c: Column) =>
      `${schema}.${ident(info.parts ? partOf(info.parts, c) : info.phys)}`
    let taken: Set<string> | null = null
    let changed = false
    for (const w of wanted) {
      const have = info.byName.get(w.name)
      if (!have) {
        taken ??= takenNames(
          [...info.columns.map((c) => c.phys), ...(info.parts ? RESERVED_COLUMNS : [])],
          true,
        )
        const c: Column = { ...w, phys: physicalName(w.name, taken) }
        await con.run(`ALTER TABLE ${target(c)} ADD COLUMN ${ident(c.phys)} ${c.type}`)
        await this.record(con, ws, tbl, info, c)
        changed = true
      } else if (widen(have.type, w.type) !== have.type) {
        have.type = widen(have.type, w.type)
        changed = true
        await con.run(
          `ALTER TABLE ${target(have)} ALTER COLUMN ${ident(have.phys)} SET DATA TYPE ${have.type}`,
        )
        await con.run(
          'UPDATE meta.columns SET type = $4 WHERE workspace_id = $1 AND tbl = $2 AND col = $3',
          [ws, tbl, w.name, have.type],
        )
      }
    }
    if (changed && info.parts) await createView(con, schema, info.phys, info.parts, info.columns)
    if (changed) this.changed.add(`${ws}\u0000${tbl}`)
    return info
  }

  private async record(
    con: DuckDBConnection,
    ws: string,
    tbl: string,
    info: TableInfo,
    c: Column,
  ): Promise<void> {
    await con.run('INSERT INTO meta.columns VALUES ($1, $2, $3, $4, $5, $6, $7)', [
      ws,
      tbl,
      c.name,
      info.columns.length,
      c.kind,
      c.type,
      c.phys,
    ])
    info.columns.push(c)
    info.byName.set(c.name, c)
  }
}
