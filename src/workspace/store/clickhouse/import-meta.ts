/**
 * Copies a DuckDB workspace's metadata (../meta-ddl.ts) into the ClickHouse metadata tables
 * (meta-ddl.ts) as they are: the same ids, tokens, key hashes and package ids, so agents and
 * API clients keep working after the move. Invariants:
 * - Idempotent: every ClickHouse metadata table is a ReplacingMergeTree over its key, so a row
 *   copied twice is one key with two versions, and reads (FINAL) see it once.
 * - Bounded: rows are read and written `batchRows` at a time (replays carry their segments).
 * - The column catalog is not copied: the points copy makes each table as its rows arrive.
 */
import { DuckDBBlobValue } from '@duckdb/node-api'
import type { Db } from '../db.js'
import { META_TABLES, type MetaTable } from './meta-ddl.js'
import type { MetaTables, MetaValue } from './meta-tables.js'

/** Tables copied, in this order (workspaces first: the rest refers to them). */
export const COPIED_META = [
  'workspaces',
  'api_keys',
  'dashboards',
  'notes',
  'labels',
  'env_variables',
  'retention_overrides',
  'replays',
  'packages',
] as const

/** DuckDB expressions for columns that may be null there but not in ClickHouse. */
const SOURCE_EXPR: Record<string, string> = {
  'dashboards.num': 'COALESCE(num, 0)',
  // Dashboards made before their settings existed read as the defaults: an empty object.
  'dashboards.attrs': "COALESCE(attrs, '{}')",
  'packages.category': "COALESCE(category, '')",
  'packages.fingerprint': "COALESCE(fingerprint, '')",
}

function selectList(t: MetaTable): string {
  return t.columns
    .filter(([c]) => c !== 'deleted' && c !== 'version')
    .map(([c]) => SOURCE_EXPR[`${t.name}.${c}`] ?? `"${c}"`)
    .join(', ')
}

/** A DuckDB value as the ClickHouse writer takes it (a blob as its bytes). */
const plain = (v: unknown): MetaValue => (v instanceof DuckDBBlobValue ? v.bytes : (v as MetaValue))

/** Copies one table; its row count. */
async function copyOne(db: Db, meta: MetaTables, t: MetaTable, batchRows: number) {
  const order = t.key.map((k) => `"${k}"`).join(', ')
  let copied = 0
  for (;;) {
    const page = await db.query(
      `SELECT ${selectList(t)} FROM meta."${t.name}" ORDER BY ${order} LIMIT ${batchRows} OFFSET ${copied}`,
    )
    if (page.rows.length)
      await meta.put(
        t,
        page.rows.map((r) => r.map(plain)),
      )
    copied += page.rows.length
    if (page.rows.length < batchRows) return copied
  }
}

export async function importDuckDbMeta(
  db: Db,
  meta: MetaTables,
  batchRows: number,
  progress: (table: string, rows: number) => void,
): Promise<void> {
  for (const name of COPIED_META)
    progress(name, await copyOne(db, meta, META_TABLES[name], batchRows))
}
