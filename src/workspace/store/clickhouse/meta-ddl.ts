/**
 * The metadata tables on ClickHouse, in the database `<prefix>_meta`. ClickHouse has no
 * transactions and no unique keys, and several workspace processes write here at once, so
 * every table is a ReplacingMergeTree over its key with a `version` (the writer's clock in
 * µs): a change is a new row, a removal a row with `deleted = 1`, and reads take the newest
 * version of each key (`FINAL`) and skip the deleted. The last change wins, as in one process.
 */
export type ChType = 'String' | 'Int64' | 'UInt64' | 'UInt8' | 'Nullable(Int64)'

export interface MetaTable {
  name: string
  columns: [string, ChType][]
  key: string[]
}

const common: [string, ChType][] = [
  ['deleted', 'UInt8'],
  ['version', 'UInt64'],
]

export const META_TABLES: Record<string, MetaTable> = {
  workspaces: {
    name: 'workspaces',
    columns: [
      ['id', 'String'],
      ['name', 'String'],
      ['token', 'String'],
      ['created_at', 'Int64'],
      ...common,
    ],
    key: ['id'],
  },
  api_keys: {
    name: 'api_keys',
    columns: [
      ['id', 'String'],
      ['workspace_id', 'String'],
      ['name', 'String'],
      ['hash', 'String'],
      ['prefix', 'String'],
      ['created_at', 'Int64'],
      ['revoked_at', 'Nullable(Int64)'],
      ...common,
    ],
    key: ['id'],
  },
  dashboards: {
    name: 'dashboards',
    columns: [
      ['workspace_id', 'String'],
      ['id', 'String'],
      ['num', 'Int64'],
      ['name', 'String'],
      ['desc', 'String'],
      ['tags', 'String'],
      ['extend', 'String'],
      ['template', 'String'],
      ['attrs', 'String'],
      ['created_at', 'Int64'],
      ['updated_at', 'Int64'],
      ['creator', 'String'],
      ['updator', 'String'],
      ...common,
    ],
    key: ['workspace_id', 'id'],
  },
  notes: {
    name: 'notes',
    columns: [
      ['workspace_id', 'String'],
      ['id', 'String'],
      ['num', 'Int64'],
      ['name', 'String'],
      ['charts', 'String'],
      ['extend', 'String'],
      ['created_at', 'Int64'],
      ['updated_at', 'Int64'],
      ['creator', 'String'],
      ['updator', 'String'],
      ...common,
    ],
    key: ['workspace_id', 'id'],
  },
  labels: {
    name: 'labels',
    columns: [
      ['id', 'String'],
      ['workspace_id', 'String'],
      ['object_class', 'String'],
      ['object_name', 'String'],
      ['labels', 'String'],
      ...common,
    ],
    key: ['id'],
  },
  env_variables: {
    name: 'env_variables',
    columns: [
      ['workspace_id', 'String'],
      ['app_id', 'String'],
      ['key', 'String'],
      ['value', 'String'],
      ...common,
    ],
    key: ['workspace_id', 'app_id', 'key'],
  },
  retention_overrides: {
    name: 'retention_overrides',
    columns: [['workspace_id', 'String'], ['category', 'String'], ['keep_ms', 'Int64'], ...common],
    key: ['workspace_id', 'category'],
  },
  // The column catalog of the point tables: tag or field, the logical type (catalog.ts).
  columns: {
    name: 'columns',
    columns: [
      ['workspace_id', 'String'],
      ['tbl', 'String'],
      ['col', 'String'],
      ['pos', 'Int64'],
      ['kind', 'String'],
      ['type', 'String'],
      ...common,
    ],
    key: ['workspace_id', 'tbl', 'col'],
  },
  // How a point table is laid out: 'series' (series-table.ts); a table without a row is flat.
  tables: {
    name: 'tables',
    columns: [['workspace_id', 'String'], ['tbl', 'String'], ['layout', 'String'], ...common],
    key: ['workspace_id', 'tbl'],
  },
  // Package ids stored, so a body sent again is answered duplicate (engine.ts).
  packages: {
    name: 'packages',
    columns: [
      ['workspace_id', 'String'],
      ['pkg_id', 'String'],
      ['category', 'String'],
      // '' when the body had none.
      ['fingerprint', 'String'],
      ['seen_at', 'Int64'],
      ...common,
    ],
    key: ['workspace_id', 'pkg_id', 'category', 'fingerprint'],
  },
  replays: {
    name: 'replays',
    columns: [
      ['workspace_id', 'String'],
      ['id', 'String'],
      ['app_id', 'String'],
      ['session_id', 'String'],
      ['view_id', 'String'],
      ['start_ms', 'Int64'],
      ['end_ms', 'Int64'],
      ['received_at', 'Int64'],
      ['size', 'Int64'],
      ['fields', 'String'],
      ['segment', 'String'],
      ...common,
    ],
    key: ['workspace_id', 'id'],
  },
}
