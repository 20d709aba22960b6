/**
 * query_refer_table / mquery_refer_table: the first row of a refer table whose key columns
 * equal the given values becomes fields of the point (every column, typed), as the reference.
 * No row, no table or a mismatched call leaves the point unchanged; neither returns a value.
 *
 * Invariants: this thread holds one set of tables, adopted from the main thread's shared
 * bytes (refer/puller.ts) and parsed once per version; a lookup never leaves the thread.
 */
import type { LibFn } from './lib-fn.js'
import { valArg } from './context.js'
import { setKey } from './pl-point.js'
import { parseReferTables, queryTable, type ReferTable } from '../refer/table.js'

/** The main thread's tables: JSON bytes in shared memory, and their version. */
export interface SharedRefer {
  version: number
  bytes: SharedArrayBuffer
}

let tables = new Map<string, ReferTable>()
let adopted = -1

/** Makes these tables this thread's (a version already held is not parsed again). */
export function adoptRefer(shared: SharedRefer): void {
  if (shared.version === adopted) return
  const text = Buffer.from(new Uint8Array(shared.bytes)).toString('utf8')
  tables = parseReferTables(text).tables
  adopted = shared.version
}

function query(p: Parameters<LibFn['run']>[1], name: unknown, keys: unknown[], values: unknown[]) {
  if (typeof name !== 'string' || !keys.every((k) => typeof k === 'string')) return
  const row = queryTable(tables, name, keys as string[], values)
  if (row) for (const [k, v, type] of row) setKey(p, k, v, type === 'float')
}

export const REFER_FNS: Record<string, LibFn> = {
  query_refer_table: {
    params: ['table_name', 'key', 'value'],
    run: (_c, p, a) => query(p, valArg(p, a[0]), [valArg(p, a[1])], [valArg(p, a[2])]),
  },
  mquery_refer_table: {
    params: ['table_name', 'keys', 'values'],
    run: (_c, p, a) => {
      const keys = valArg(p, a[1])
      const values = valArg(p, a[2])
      if (Array.isArray(keys) && Array.isArray(values)) query(p, valArg(p, a[0]), keys, values)
    },
  },
}
