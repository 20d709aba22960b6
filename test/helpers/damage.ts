/**
 * Damaging a real workspace database the way a bad disk does: one data block overwritten, so
 * DuckDB still opens the file (headers and catalog intact) but its checksum fails on read.
 */
import fs from 'node:fs'
import { DuckDBInstance } from '@duckdb/node-api'

const BLOCK = 262_144
const FILE_HEADERS = 3 * 4096

/**
 * Opens `file` read-only and calls `fn` with a query runner and the storage-info expression
 * (`pragma_storage_info(...)`) of the points table of `M::cpu` (series layout), whichever
 * workspace schema holds it.
 */
async function withCpuStorage<T>(
  file: string,
  fn: (rows: (sql: string) => Promise<unknown[][]>, info: string) => Promise<T>,
): Promise<T> {
  const inst = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' })
  const con = await inst.connect()
  try {
    const rows = async (sql: string) => (await con.runAndReadAll(sql)).getRows()
    const table = (
      await rows("SELECT schema_name FROM duckdb_tables() WHERE table_name = 'M::cpu:points'")
    )[0][0] as string
    return await fn(rows, `pragma_storage_info('"${table}"."M::cpu:points"')`)
  } finally {
    con.closeSync()
    inst.closeSync()
  }
}

/**
 * The block of row group 1's `usage` column in the points table of `M::cpu` (series layout),
 * and the rows of every group stored in it.
 */
export function victimBlock(file: string): Promise<{ block: number; rows: number }> {
  return withCpuStorage(file, async (rows, info) => {
    const block = Number(
      (
        await rows(
          `SELECT block_id FROM ${info} WHERE row_group_id = 1 AND column_name = 'usage' AND segment_type <> 'VALIDITY' LIMIT 1`,
        )
      )[0][0],
    )
    // A block may hold segments of several row groups: all of them become unreadable.
    const lost = Number(
      (
        await rows(
          `SELECT sum(c) FROM (SELECT DISTINCT row_group_id, (SELECT max(count) FROM ${info} i WHERE i.row_group_id = o.row_group_id AND i.column_id = 0) AS c FROM ${info} o WHERE block_id = ${block})`,
        )
      )[0][0],
    )
    return { block, rows: lost }
  })
}

/**
 * A block of the `usage` column in the points table of `M::cpu` holding nothing but segments
 * of row group 0 before row `before`: with the start probe reading from that row on, a block
 * it never reads (only a full scan does).
 */
export function oldBlock(file: string, before: number): Promise<number> {
  return withCpuStorage(file, async (rows, info) =>
    Number(
      (
        await rows(
          `SELECT block_id FROM ${info} WHERE column_name = 'usage' AND segment_type <> 'VALIDITY' GROUP BY block_id HAVING max(row_group_id) = 0 AND max(start + count) <= ${before} ORDER BY block_id LIMIT 1`,
        )
      )[0][0],
    ),
  )
}

/** Overwrites 4 KiB inside `block` (past its checksum header). */
export function overwriteBlock(file: string, block: number): void {
  const fd = fs.openSync(file, 'r+')
  fs.writeSync(fd, Buffer.alloc(4096, 0x33), 0, 4096, FILE_HEADERS + block * BLOCK + 64)
  fs.closeSync(fd)
}
