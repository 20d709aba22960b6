/**
 * `ferry workspace repair`: recovers what a damaged workspace database still holds.
 *
 * - The damaged file is only ever opened read-only; nothing is written into it.
 * - A database whose every table reads in full is left alone ("nothing to repair").
 * - Otherwise the readable rows go to a fresh file beside it (repair-copy.ts), and only once
 *   that file is complete and checkpointed is the damaged one (and its WAL) renamed aside to
 *   `ferry.duckdb.damaged-<time>` and the fresh one put in its place, so a crash midway leaves
 *   the original where it was.
 * - A file DuckDB cannot open at all (a truncated one loses the metadata at its end) holds
 *   nothing it can read: it is moved aside, and the next start creates an empty database.
 */
import fs from 'node:fs'
import path from 'node:path'
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api'
import { FerryError } from '../errors.js'
import { isLockMessage } from './store/damage.js'
import { DB_FILE } from './store/db.js'
import { ident } from './store/names.js'
import { copySchema, copyTable, type TableRecovery } from './repair-copy.js'

export interface RepairReport {
  /** healthy: nothing done; repaired: rows copied to a fresh file; reset: nothing readable. */
  outcome: 'healthy' | 'repaired' | 'reset'
  /** Why DuckDB could not open the damaged file, or null. */
  openError: string | null
  tables: TableRecovery[]
  /** Where the damaged file was moved, or null. */
  movedTo: string | null
}

const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`

function moveAside(file: string, stamp: string): string {
  const to = `${file}.damaged-${stamp}`
  fs.renameSync(file, to)
  if (fs.existsSync(`${file}.wal`)) fs.renameSync(`${file}.wal`, `${to}.wal`)
  return to
}

async function attachOld(con: DuckDBConnection, file: string): Promise<string | null> {
  try {
    await con.run(`ATTACH ${sqlString(file)} AS old (READ_ONLY)`)
    return null
  } catch (e) {
    const msg = (e as Error).message
    if (isLockMessage(msg))
      throw new FerryError('databaseLocked', `${file} is in use; stop the workspace first: ${msg}`)
    return msg
  }
}

/** Copies every table into `fresh`; the tables' reports in order. */
async function copyAll(con: DuckDBConnection, fresh: string): Promise<TableRecovery[]> {
  await con.run(`ATTACH ${sqlString(fresh)} AS new`)
  await con.run('USE new')
  const tables = await copySchema(con)
  const out: TableRecovery[] = []
  for (const [schema, name] of tables) out.push(await copyTable(con, schema, name))
  await con.run('CHECKPOINT new')
  await con.run('USE memory')
  await con.run('DETACH new')
  return out
}

/** True when every table of `old` reads in full (the same check as `verify`). */
async function allReadable(con: DuckDBConnection): Promise<boolean> {
  const listed = await con.runAndReadAll(
    "SELECT schema_name, table_name FROM duckdb_tables() WHERE database_name = 'old'",
  )
  for (const [s, t] of listed.getRows() as string[][]) {
    const rel = `old.${ident(s)}.${ident(t)}`
    try {
      await con.run(`SELECT count(*), min(hash(COLUMNS(*))) FROM ${rel}`)
    } catch {
      return false
    }
  }
  return true
}

export async function repairWorkspace(dir: string, now = new Date()): Promise<RepairReport> {
  const file = path.join(dir, DB_FILE)
  if (!fs.existsSync(file))
    throw new FerryError('workspaceDamaged', `no database at ${file}: nothing to repair`)
  const stamp = now.toISOString().replace(/[:.]/g, '-')
  const instance = await DuckDBInstance.create(':memory:')
  const con = await instance.connect()
  try {
    const openError = await attachOld(con, file)
    if (openError !== null)
      return { outcome: 'reset', openError, tables: [], movedTo: moveAside(file, stamp) }
    if (await allReadable(con))
      return { outcome: 'healthy', openError: null, tables: [], movedTo: null }
    const fresh = `${file}.repairing`
    for (const f of [fresh, `${fresh}.wal`]) fs.rmSync(f, { force: true })
    const tables = await copyAll(con, fresh)
    await con.run('DETACH old')
    const movedTo = moveAside(file, stamp)
    fs.renameSync(fresh, file)
    return { outcome: 'repaired', openError: null, tables, movedTo }
  } finally {
    con.closeSync()
    instance.closeSync()
  }
}

export function repairText(r: RepairReport): string {
  if (r.outcome === 'healthy') return 'every table reads in full: nothing to repair'
  if (r.outcome === 'reset')
    return [
      `cannot open the database: ${r.openError}`,
      'nothing in it can be read; the workspace starts with an empty database',
      `moved the damaged file to ${r.movedTo}`,
    ].join('\n')
  const lines = r.tables.map((t) =>
    t.error === null
      ? `ok\t${t.table}\t${t.recovered} rows`
      : `PARTIAL\t${t.table}\t${t.recovered} of ${t.rows ?? '?'} rows recovered, ${t.lost} lost: ${t.error}`,
  )
  const recovered = r.tables.reduce((n, t) => n + t.recovered, 0)
  const lost = r.tables.reduce((n, t) => n + t.lost, 0)
  const partial = r.tables.filter((t) => t.error !== null).length
  lines.push(
    `${r.tables.length} tables, ${partial} partial: ${recovered} rows recovered, ${lost} lost`,
  )
  lines.push(`moved the damaged file to ${r.movedTo}`)
  return lines.join('\n')
}

export async function repairCommand(dir: string, json: boolean): Promise<void> {
  const r = await repairWorkspace(dir)
  console.log(json ? JSON.stringify(r) : repairText(r))
}
