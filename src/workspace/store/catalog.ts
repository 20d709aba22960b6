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
import { physicalName, takenNames } from './physical.js'

export type ColumnType = 'DOUBLE' | 'BOOLEAN' | 'VARCHAR'
export type ColumnKind = 'tag' | 'field'

/** A column as a batch wants it (decoders know no physical names). */
export interface ColumnSpec {
  name: string
  kind: ColumnKind
  type: ColumnType
}

export interface Column extends ColumnSpec {
  /** The DuckDB column name. */
  phys: string
}

export interface TableInfo {
  /** The DuckDB table name inside the workspace's schema. */
  phys: string
  /** Without the time column, which always comes first. */
  columns: Column[]
  byName: Map<string, Column>
}

export function widen(a: ColumnType, b: ColumnType): ColumnType {
  return a === b ? a : 'VARCHAR'
}

type Read = (sql: string) => Promise<unknown[][]>

export class Catalog {
  /** workspace id -> table name -> info */
  private tables = new Map<string, Map<string, TableInfo>>()

  async load(read: Read): Promise<void> {
    this.tables = new Map()
    for (const [ws, tbl, phys] of (await read(
      'SELECT workspace_id, tbl, phys FROM meta.tables',
    )) as string[][])
      this.tableOrNew(ws, tbl, phys)
    const rows = await read(
      'SELECT workspace_id, tbl, col, kind, type, coalesce(phys, col) FROM meta.columns ORDER BY workspace_id, tbl, pos',
    )
    for (const [ws, tbl, col, kind, type, phys] of rows as string[][]) {
      const info = this.tableOrNew(ws, tbl, tbl)
      const c: Column = { name: col, kind: kind as ColumnKind, type: type as ColumnType, phys }
      info.columns.push(c)
      info.byName.set(col, c)
    }
  }

  table(workspaceId: string, table: string): TableInfo | undefined {
    return this.tables.get(workspaceId)?.get(table)
  }

  tableNames(workspaceId: string): string[] {
    return [...(this.tables.get(workspaceId)?.keys() ?? [])]
  }

  /** Every point table of every workspace, with its DuckDB name. */
  allTables(): { workspace: string; table: string; phys: string }[] {
    const out: { workspace: string; table: string; phys: string }[] = []
    for (const [workspace, byTable] of this.tables)
      for (const [table, info] of byTable) out.push({ workspace, table, phys: info.phys })
    return out
  }

  private tableOrNew(ws: string, tbl: string, phys: string): TableInfo {
    let byTable = this.tables.get(ws)
    if (!byTable) this.tables.set(ws, (byTable = new Map()))
    let info = byTable.get(tbl)
    if (!info) byTable.set(tbl, (info = { phys, columns: [], byName: new Map() }))
    return info
  }

  /** Creates the table under a physical name free in its schema, and records the choice. */
  private async create(con: DuckDBConnection, ws: string, tbl: string): Promise<TableInfo> {
    const others = [...(this.tables.get(ws)?.values() ?? [])].map((t) => t.phys)
    const phys = physicalName(tbl, takenNames(others, false))
    const schema = ident(schemaName(ws))
    await con.run(`CREATE SCHEMA IF NOT EXISTS ${schema}`)
    await con.run(`CREATE TABLE ${schema}.${ident(phys)} (${ident(TIME_COLUMN)} BIGINT NOT NULL)`)
    await con.run('INSERT INTO meta.tables VALUES ($1, $2, $3)', [ws, tbl, phys])
    return this.tableOrNew(ws, tbl, phys)
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
  ): Promise<TableInfo> {
    const info = this.table(ws, tbl) ?? (await this.create(con, ws, tbl))
    const target = `${ident(schemaName(ws))}.${ident(info.phys)}`
    let taken: Set<string> | null = null
    for (const w of wanted) {
      const have = info.byName.get(w.name)
      if (!have) {
        taken ??= takenNames(
          info.columns.map((c) => c.phys),
          true,
        )
        const c: Column = { ...w, phys: physicalName(w.name, taken) }
        await con.run(`ALTER TABLE ${target} ADD COLUMN ${ident(c.phys)} ${c.type}`)
        await this.record(con, ws, tbl, info, c)
      } else if (widen(have.type, w.type) !== have.type) {
        have.type = widen(have.type, w.type)
        await con.run(
          `ALTER TABLE ${target} ALTER COLUMN ${ident(have.phys)} SET DATA TYPE ${have.type}`,
        )
        await con.run(
          'UPDATE meta.columns SET type = $4 WHERE workspace_id = $1 AND tbl = $2 AND col = $3',
          [ws, tbl, w.name, have.type],
        )
      }
    }
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
