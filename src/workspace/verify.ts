/**
 * `ferry workspace verify`: opens the workspace database and reads every column of every
 * table (metadata and points), so a damaged block shows up here rather than in a query. The
 * report has one line per table; any failure makes the command exit 1.
 */
import { FerryError } from '../errors.js'
import fs from 'node:fs'
import path from 'node:path'
import { Db, DB_FILE } from './store/db.js'
import { ident } from './store/names.js'
import type { Config } from '../config/schema.js'
import type { WorkspaceClickHouseConfig } from '../config/schema-workspace-clickhouse.js'
import { clickHouseClient } from './store/clickhouse/open.js'
import { verifyClickHouse } from './store/clickhouse/verify.js'
import { workspaceDir } from './service.js'

export interface TableCheck {
  table: string
  rows: number | null
  error: string | null
}

export interface VerifyReport {
  ok: boolean
  /** Why the database could not be opened at all, or null. */
  openError: string | null
  tables: TableCheck[]
}

// hash(COLUMNS(*)) makes DuckDB decode every column, which count(*) alone would skip.
const readAll = (table: string) => `SELECT count(*), min(hash(COLUMNS(*))) FROM ${table}`

async function checkTables(db: Db): Promise<TableCheck[]> {
  const listed = await db.query(
    'SELECT schema_name, table_name FROM duckdb_tables() ORDER BY schema_name, table_name',
  )
  const out: TableCheck[] = []
  for (const [schema, name] of listed.rows as string[][]) {
    const table = `${ident(schema)}.${ident(name)}`
    try {
      const r = await db.query(readAll(table), [], 600_000)
      out.push({ table: `${schema}.${name}`, rows: Number(r.rows[0][0]), error: null })
    } catch (e) {
      out.push({ table: `${schema}.${name}`, rows: null, error: (e as Error).message })
    }
  }
  return out
}

/** The tables of the configured ClickHouse (store/clickhouse/verify.ts). */
export async function verifyClickHouseWorkspace(
  ch: WorkspaceClickHouseConfig,
  timeoutMs: number,
): Promise<VerifyReport> {
  const client = clickHouseClient(ch)
  try {
    const tables = await verifyClickHouse(client, ch.database, timeoutMs)
    return { ok: tables.every((t) => t.error === null), openError: null, tables }
  } catch (e) {
    return { ok: false, openError: (e as Error).message, tables: [] }
  } finally {
    await client.close()
  }
}

export async function verifyWorkspace(dir: string, memoryLimit: number): Promise<VerifyReport> {
  // Opening would create an empty database: an absent one is reported, not made.
  const file = path.join(dir, DB_FILE)
  if (!fs.existsSync(file)) return { ok: false, openError: `no database at ${file}`, tables: [] }
  let db: Db
  try {
    db = await Db.open({ dir, memoryLimit, threads: 0 })
  } catch (e) {
    return { ok: false, openError: (e as Error).message, tables: [] }
  }
  try {
    const tables = await checkTables(db)
    return { ok: tables.every((t) => t.error === null), openError: null, tables }
  } finally {
    await db.close()
  }
}

export function reportText(r: VerifyReport): string {
  if (r.openError) return `cannot open the database: ${r.openError}`
  const lines = r.tables.map((t) =>
    t.error === null ? `ok\t${t.table}\t${t.rows} rows` : `FAILED\t${t.table}\t${t.error}`,
  )
  const bad = r.tables.filter((t) => t.error !== null).length
  lines.push(`${r.tables.length} tables, ${bad} unreadable`)
  return lines.join('\n')
}

/** Prints the report; throws (exit 1) when anything could not be read. */
export async function verifyCommand(cfg: Config, json: boolean) {
  const w = cfg.workspace
  const r =
    w.engine === 'clickhouse'
      ? await verifyClickHouseWorkspace(cfg['workspace.clickhouse'], w.query_timeout)
      : await verifyWorkspace(workspaceDir(cfg), w.memory_limit)
  console.log(json ? JSON.stringify(r) : reportText(r))
  if (!r.ok)
    throw new FerryError(
      'workspaceDamaged',
      r.openError
        ? 'the workspace database cannot be opened'
        : 'some workspace tables cannot be read',
    )
}
