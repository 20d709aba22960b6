/**
 * What readers see of the catalog: a copy of each table's description as of the last commit.
 * The writer changes its working catalog inside a transaction (a new table, a column, a wider
 * type) before COMMIT; if queries read that, a query racing a table's first write would name a
 * table or column DuckDB does not show it yet and fail. So the writer publishes the tables it
 * changed after COMMIT, and a rollback republishes everything from the reloaded catalog.
 */
import type { TableInfo } from './columns.js'

function copy(info: TableInfo): TableInfo {
  const columns = info.columns.map((c) => ({ ...c }))
  return {
    phys: info.phys,
    parts: info.parts,
    columns,
    byName: new Map(columns.map((c) => [c.name, c])),
  }
}

export class CatalogSnapshot {
  /** workspace id -> table name -> info */
  private readonly tables = new Map<string, Map<string, TableInfo>>()

  get(ws: string, tbl: string): TableInfo | undefined {
    return this.tables.get(ws)?.get(tbl)
  }

  byWorkspace(): Map<string, Map<string, TableInfo>> {
    return this.tables
  }

  set(ws: string, tbl: string, info: TableInfo): void {
    let byTable = this.tables.get(ws)
    if (!byTable) this.tables.set(ws, (byTable = new Map()))
    byTable.set(tbl, copy(info))
  }

  replaceAll(working: Map<string, Map<string, TableInfo>>): void {
    this.tables.clear()
    for (const [ws, byTable] of working) for (const [tbl, info] of byTable) this.set(ws, tbl, info)
  }
}
