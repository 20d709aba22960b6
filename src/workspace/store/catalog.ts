/**
 * The column catalog: for every point table of every workspace, its columns in table order,
 * whether each is a tag or a field, and its type. Mirrored in memory from `meta.columns`; all
 * changes are DDL inside the writer's transaction, and after a rollback the mirror is reloaded.
 *
 * Types only widen: DOUBLE (every number) and BOOLEAN become VARCHAR when a value of another
 * kind arrives, so no value is ever refused for its type.
 */
import type { DuckDBConnection } from '@duckdb/node-api'
import { ident, qualified, schemaName, TIME_COLUMN } from './names.js'

export type ColumnType = 'DOUBLE' | 'BOOLEAN' | 'VARCHAR'
export type ColumnKind = 'tag' | 'field'

export interface Column {
  name: string
  kind: ColumnKind
  type: ColumnType
}

export interface TableInfo {
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
    const rows = await read(
      'SELECT workspace_id, tbl, col, kind, type FROM meta.columns ORDER BY workspace_id, tbl, pos',
    )
    this.tables = new Map()
    for (const [ws, tbl, col, kind, type] of rows as string[][]) {
      const info = this.tableOrNew(ws, tbl)
      const c: Column = { name: col, kind: kind as ColumnKind, type: type as ColumnType }
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

  private tableOrNew(ws: string, tbl: string): TableInfo {
    let byTable = this.tables.get(ws)
    if (!byTable) this.tables.set(ws, (byTable = new Map()))
    let info = byTable.get(tbl)
    if (!info) byTable.set(tbl, (info = { columns: [], byName: new Map() }))
    return info
  }

  /**
   * Creates the table or adds and widens columns so that `wanted` fits; runs inside the
   * caller's transaction. Returns the table's columns afterwards.
   */
  async ensure(
    con: DuckDBConnection,
    ws: string,
    tbl: string,
    wanted: Column[],
  ): Promise<Column[]> {
    const exists = this.table(ws, tbl) !== undefined
    const info = this.tableOrNew(ws, tbl)
    const target = qualified(ws, tbl)
    if (!exists) {
      await con.run(`CREATE SCHEMA IF NOT EXISTS ${ident(schemaName(ws))}`)
      await con.run(`CREATE TABLE IF NOT EXISTS ${target} (${ident(TIME_COLUMN)} BIGINT NOT NULL)`)
    }
    for (const w of wanted) {
      const have = info.byName.get(w.name)
      if (!have) {
        await con.run(`ALTER TABLE ${target} ADD COLUMN ${ident(w.name)} ${w.type}`)
        await this.record(con, ws, tbl, w)
        const c: Column = { ...w }
        info.columns.push(c)
        info.byName.set(c.name, c)
      } else if (widen(have.type, w.type) !== have.type) {
        have.type = widen(have.type, w.type)
        await con.run(
          `ALTER TABLE ${target} ALTER COLUMN ${ident(w.name)} SET DATA TYPE ${have.type}`,
        )
        await con.run(
          'UPDATE meta.columns SET type = $4 WHERE workspace_id = $1 AND tbl = $2 AND col = $3',
          [ws, tbl, w.name, have.type],
        )
      }
    }
    return info.columns
  }

  private async record(con: DuckDBConnection, ws: string, tbl: string, c: Column): Promise<void> {
    const pos = this.table(ws, tbl)?.columns.length ?? 0
    await con.run('INSERT INTO meta.columns VALUES ($1, $2, $3, $4, $5, $6)', [
      ws,
      tbl,
      c.name,
      pos,
      c.kind,
      c.type,
    ])
  }
}
