/**
 * Damaging a real workspace database the way a bad disk does: one data block overwritten, so
 * DuckDB still opens the file (headers and catalog intact) but its checksum fails on read.
 */
import fs from 'node:fs'
import { DuckDBInstance } from '@duckdb/node-api'

const BLOCK = 262_144
const FILE_HEADERS = 3 * 4096

/**
 * The block of row group 1's `usage` column in the points table of `M::cpu` (series layout),
 * and the rows of every group stored in it.
 */
export async function victimBlock(file: string): Promise<{ block: number; rows: number }> {
  const inst = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' })
  const con = await inst.connect()
  const table = (
    await con.runAndReadAll(
      "SELECT schema_name FROM duckdb_tables() WHERE table_name = 'M::cpu:points'",
    )
  ).getRows()[0][0] as string
  const info = `pragma_storage_info('"${table}"."M::cpu:points"')`
  const block = Number(
    (
      await con.runAndReadAll(
        `SELECT block_id FROM ${info} WHERE row_group_id = 1 AND column_name = 'usage' AND segment_type <> 'VALIDITY' LIMIT 1`,
      )
    ).getRows()[0][0],
  )
  // A block may hold segments of several row groups: all of them become unreadable.
  const rows = Number(
    (
      await con.runAndReadAll(
        `SELECT sum(c) FROM (SELECT DISTINCT row_group_id, (SELECT max(count) FROM ${info} i WHERE i.row_group_id = o.row_group_id AND i.column_id = 0) AS c FROM ${info} o WHERE block_id = ${block})`,
      )
    ).getRows()[0][0],
  )
  con.closeSync()
  inst.closeSync()
  return { block, rows }
}

/**
 * A block of the `usage` column in the points table of `M::cpu` holding nothing but segments
 * of row group 0 before row `before`: with the start probe reading from that row on, a block
 * it never reads (only a full scan does).
 */
export async function oldBlock(file: string, before: number): Promise<number> {
  const inst = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' })
  const con = await inst.connect()
  const table = (
    await con.runAndReadAll(
      "SELECT schema_name FROM duckdb_tables() WHERE table_name = 'M::cpu:points'",
    )
  ).getRows()[0][0] as string
  const info = `pragma_storage_info('"${table}"."M::cpu:points"')`
  const rows = await con.runAndReadAll(
    `SELECT block_id FROM ${info} WHERE column_name = 'usage' AND segment_type <> 'VALIDITY' GROUP BY block_id HAVING max(row_group_id) = 0 AND max(start + count) <= ${before} ORDER BY block_id LIMIT 1`,
  )
  con.closeSync()
  inst.closeSync()
  return Number(rows.getRows()[0][0])
}

/** Overwrites 4 KiB inside `block` (past its checksum header). */
export function overwriteBlock(file: string, block: number): void {
  const fd = fs.openSync(file, 'r+')
  fs.writeSync(fd, Buffer.alloc(4096, 0x33), 0, 4096, FILE_HEADERS + block * BLOCK + 64)
  fs.closeSync(fd)
}
