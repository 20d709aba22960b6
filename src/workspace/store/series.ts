/**
 * Series ids of the series layout (series-layout.ts). Per table, a dictionary from tag set to
 * id, loaded from the series table the first time the writer touches the table in this process
 * and kept in step with it: ids are handed out only inside the writer's transaction, and after
 * a rollback every dictionary is dropped (reloaded when next needed), so memory never holds an
 * id the database does not.
 *
 * Each tag column interns its values to small numbers (1 up; 0 is null), once per distinct
 * value of a batch, not per row. A tag set's key is those numbers in catalog column order, two
 * UTF-16 units each, trailing nulls left out: a tag column added later leaves the keys of
 * earlier series unchanged, and no two tag sets share a key.
 */
import type { DuckDBConnection } from '@duckdb/node-api'
import { FerryError } from '../../errors.js'
import { asText, type ColumnData } from '../ingest/column-data.js'
import type { TableBatch } from '../ingest/columns.js'
import type { Column, TableInfo } from './catalog.js'
import { ident, schemaName } from './names.js'
import { groupRows } from './series-groups.js'
import { SID_COLUMN } from './series-layout.js'

type Text = Extract<ColumnData, { type: 'VARCHAR' }>

/** Series ids are INTEGER: this many series per table at most. */
const MAX_SID = 2 ** 31 - 1

interface Dictionary {
  ids: Map<string, number>
  /** Per tag column (catalog order), value -> its number. */
  values: Map<string, number>[]
  next: number
}

export interface SeriesSplit {
  /** The table's tag columns, in the series table's order. */
  tags: Column[]
  /** One series id per row of the batch. */
  sids: Int32Array
  /** The series first seen in this batch, to append to the series table. */
  fresh: { sids: Int32Array; columns: Column[]; data: Text[]; rows: number }
}

function valueId(dict: Dictionary, col: number, v: string | null): number {
  if (v === null) return 0
  const values = (dict.values[col] ??= new Map())
  let id = values.get(v)
  if (id === undefined) values.set(v, (id = values.size + 1))
  return id
}

/** The key of a tag set given as value numbers per column. */
function keyOf(ids: number[]): string {
  let n = ids.length
  while (n > 0 && ids[n - 1] === 0) n--
  const units: number[] = []
  for (let i = 0; i < n; i++) units.push(ids[i] & 0xffff, ids[i] >>> 16)
  return String.fromCharCode(...units)
}

/** Per batch column, its dictionary's codes as value numbers of the table's dictionary. */
function batchIds(dict: Dictionary, cols: (Text | null)[]): (Int32Array | null)[] {
  return cols.map((c, i) => (c ? Int32Array.from(c.dict, (v) => valueId(dict, i, v)) : null))
}

export class SeriesIndex {
  private dicts = new Map<string, Dictionary>()

  /** Forgets every dictionary (after a rollback, or a delete of series rows). */
  reset(): void {
    this.dicts.clear()
  }

  /** The series id of every row of `batch`, adding the tag sets not seen before. */
  async split(
    con: DuckDBConnection,
    ws: string,
    info: TableInfo,
    batch: TableBatch,
  ): Promise<SeriesSplit> {
    const tags = info.columns.filter((c) => c.kind === 'tag')
    const dict = await this.dictionary(con, ws, info, tags)
    const index = new Map(batch.columns.map((c, i) => [c.name, i]))
    const cols = tags.map((c) => {
      const i = index.get(c.name)
      return i === undefined ? null : asText(batch.data[i])
    })
    const rows = batch.time.length
    const { group, reps } = groupRows(cols, rows)
    const local = batchIds(dict, cols)
    const groupSid = new Int32Array(reps.length)
    const freshRows: number[] = []
    const freshSids: number[] = []
    const ids: number[] = new Array<number>(cols.length)
    reps.forEach((rep, g) => {
      for (let i = 0; i < cols.length; i++) {
        const code = cols[i] ? cols[i]!.codes[rep] : -1
        ids[i] = code < 0 ? 0 : local[i]![code]
      }
      const key = keyOf(ids)
      let sid = dict.ids.get(key)
      if (sid === undefined) {
        if (dict.next > MAX_SID)
          throw new FerryError('unstorablePoints', `${info.phys}: more than ${MAX_SID} series`)
        dict.ids.set(key, (sid = dict.next++))
        freshRows.push(rep)
        freshSids.push(sid)
      }
      groupSid[g] = sid
    })
    const sids = new Int32Array(rows)
    for (let r = 0; r < rows; r++) sids[r] = groupSid[group[r]]
    return { tags, sids, fresh: freshOf(tags, cols, freshRows, freshSids) }
  }

  private async dictionary(
    con: DuckDBConnection,
    ws: string,
    info: TableInfo,
    tags: Column[],
  ): Promise<Dictionary> {
    const name = `${ws}\u0000${info.phys}`
    let dict = this.dicts.get(name)
    if (dict) return dict
    const cols = [SID_COLUMN, ...tags.map((c) => c.phys)].map(ident).join(', ')
    const table = `${ident(schemaName(ws))}.${ident(info.parts!.series)}`
    const rows = (await con.runAndReadAll(`SELECT ${cols} FROM ${table}`)).getRows()
    dict = { ids: new Map(), values: [], next: 0 }
    for (const [sid, ...values] of rows) {
      const id = Number(sid)
      const key = keyOf((values as (string | null)[]).map((v, i) => valueId(dict!, i, v)))
      dict.ids.set(key, id)
      if (id >= dict.next) dict.next = id + 1
    }
    this.dicts.set(name, dict)
    return dict
  }
}

/** The tag columns of the rows in `rows`, sharing the batch's dictionaries. */
function freshOf(
  tags: Column[],
  cols: (Text | null)[],
  rows: number[],
  sids: number[],
): SeriesSplit['fresh'] {
  const columns: Column[] = []
  const data: Text[] = []
  cols.forEach((c, i) => {
    if (!c) return
    columns.push(tags[i])
    data.push({ type: 'VARCHAR', dict: c.dict, codes: Int32Array.from(rows, (r) => c.codes[r]) })
  })
  return { sids: Int32Array.from(sids), columns, data, rows: rows.length }
}
