/**
 * What the catalog knows of a point table and its columns (catalog.ts keeps them; the series
 * layout, the snapshot and the engines read them).
 */

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
  /** The tables behind the view `phys` in the series layout (series-layout.ts); null: flat. */
  parts: SeriesParts | null
}

/** The two tables behind a table in the series layout (series-layout.ts). */
export interface SeriesParts {
  points: string
  series: string
}
