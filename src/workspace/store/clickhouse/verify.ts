/**
 * `ferry workspace verify` on ClickHouse: every metadata table the service needs exists, and
 * every table of the metadata and of each workspace (`<prefix>_meta`, `<prefix>_w_*`) answers
 * a full read. ClickHouse checks its own parts' checksums; what is checked here is that the
 * service would find and read what it expects. One line per table, as on DuckDB.
 */
import type { ClickHouseClient } from './client.js'
import { META_TABLES } from './meta-ddl.js'
import { chIdent, chString } from './sql.js'

export interface ClickHouseTableCheck {
  table: string
  rows: number | null
  error: string | null
}

async function readTable(
  client: ClickHouseClient,
  db: string,
  name: string,
  timeoutMs: number,
): Promise<ClickHouseTableCheck> {
  const table = `${db}.${name}`
  try {
    // A checksum of every row's text makes the server read every column, not just count parts.
    const sql = `SELECT count(), sum(cityHash64(toString(tuple(*)))) FROM ${chIdent(db)}.${chIdent(name)}`
    const r = await client.query(sql, { timeoutMs })
    return { table, rows: Number(r.rows[0][0]), error: null }
  } catch (e) {
    return { table, rows: null, error: (e as Error).message.split('\n')[0] }
  }
}

export async function verifyClickHouse(
  client: ClickHouseClient,
  prefix: string,
  timeoutMs: number,
): Promise<ClickHouseTableCheck[]> {
  const meta = `${prefix}_meta`
  const listed = await client.query(
    `SELECT database, name FROM system.tables WHERE database = ${chString(meta)} OR startsWith(database, ${chString(`${prefix}_w_`)}) ORDER BY database, name`,
    { timeoutMs },
  )
  const found = listed.rows as string[][]
  const out: ClickHouseTableCheck[] = Object.values(META_TABLES)
    .filter((t) => !found.some(([db, name]) => db === meta && name === t.name))
    .map((t) => ({ table: `${meta}.${t.name}`, rows: null, error: 'missing' }))
  for (const [db, name] of found) out.push(await readTable(client, db, name, timeoutMs))
  return out
}
