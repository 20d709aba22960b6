/**
 * One table batch of a body in the series layout (series-table.ts) as two INSERTs: the series
 * rows this process has not written yet (one per series and day of the batch, RowBinary), then
 * the points (`time`, `_sid`, the batch's field columns in its order: a Native block through
 * insert.ts). Invariants:
 * - The points insert depends on the body alone (rows in body order, ids computed from the tag
 *   values, series-id.ts): a retried body gives the same block, which replicated tables drop.
 * - Series rows may be written any number of times (the table keeps one per id and day), so
 *   which of them a body carries may vary; they go first, so no point is ever read without its
 *   series. `SeriesSeen` remembers the rows written, at most `limit` of them; when full it
 *   forgets them all and rows are written again (a cost, never a loss).
 */
import type { Column, TableInfo } from '../catalog.js'
import { asText, type ColumnData } from '../../ingest/column-data.js'
import type { TableBatch } from '../../ingest/columns.js'
import { groupRows } from '../series-groups.js'
import type { CallOptions, ClickHouseClient } from './client.js'
import { encodeBatch, type EncodedInsert } from './insert.js'
import { encodeNullableString, RowBinaryWriter } from './rowbinary.js'
import { escapeTag, TagSetIds } from './series-id.js'
import { DAY, SID } from './series-table.js'
import { chIdent } from './sql.js'

type Text = Extract<ColumnData, { type: 'VARCHAR' }>

const DAY_NS = 86_400_000_000_000n

export class SeriesSeen {
  private readonly rows = new Set<string>()
  constructor(readonly limit: number) {}
  has(key: string): boolean {
    return this.rows.has(key)
  }
  add(keys: string[]): void {
    if (this.rows.size + keys.length > this.limit) this.rows.clear()
    for (const k of keys) this.rows.add(k)
  }
  /** After days were dropped: their rows must be written again if points for them arrive. */
  clear(): void {
    this.rows.clear()
  }
}

export interface SeriesInsert {
  /** Null when every series row of the batch was written before. */
  series: EncodedInsert | null
  points: EncodedInsert
  /** What to remember once both inserts succeeded. */
  written: string[]
}

/** The day (since 1970-01-01, as a `Date`) of a time in ns, as `toDate(intDiv(t, 1e9))`. */
function dayOf(t: bigint): number {
  // A Date holds days up to 2149-06-06 (65535): later points share that last day.
  return t <= 0n ? 0 : Math.min(Number(t / DAY_NS), 65_535)
}

/** Writes `batch` into the series-layout table whose points are `table` (info.parts). */
export async function insertSeries(
  client: ClickHouseClient,
  table: string,
  info: TableInfo,
  batch: TableBatch,
  seen: SeriesSeen,
  o: CallOptions,
): Promise<void> {
  const enc = encodeSeriesBatch(batch, info, seen, table)
  const { series, points } = enc
  if (series) await client.insert(info.parts!.series, series.columns, series.body, o, series.format)
  await client.insert(table, points.columns, points.body, o, points.format)
  seen.add(enc.written)
}

export function encodeSeriesBatch(
  batch: TableBatch,
  info: TableInfo,
  seen: SeriesSeen,
  scope: string,
): SeriesInsert {
  const tagIdx: number[] = []
  const fieldIdx: number[] = []
  batch.columns.forEach((spec, ci) =>
    (info.byName.get(spec.name)!.kind === 'tag' ? tagIdx : fieldIdx).push(ci),
  )
  const tags: Text[] = tagIdx.map((ci) => asText(batch.data[ci]))
  const tagCols: Column[] = tagIdx.map((ci) => info.byName.get(batch.columns[ci].name)!)
  const rows = batch.time.length
  const { group, reps } = groupRows(tags, rows)
  const ids = new TagSetIds(tagCols.map((c) => c.name))
  const escaped = tags.map((t) => t.dict.map(escapeTag))
  const groupSid = reps.map((rep) =>
    ids.id(tags.map((t, j) => (t.codes[rep] < 0 ? null : escaped[j][t.codes[rep]]))),
  )
  const sids = new BigUint64Array(rows)
  // Per group, the last day checked: a body's rows of one series are mostly of one day.
  const lastDay = new Int32Array(reps.length).fill(-1)
  const fresh = new Map<string, [number, number]>()
  for (let r = 0; r < rows; r++) {
    const g = group[r]
    sids[r] = groupSid[g]
    const day = dayOf(batch.time[r])
    if (lastDay[g] === day) continue
    lastDay[g] = day
    const key = `${scope}\u0000${groupSid[g]}\u0000${day}`
    if (!fresh.has(key) && !seen.has(key)) fresh.set(key, [reps[g], day])
  }
  const points = encodeBatch(batch, info, { ids: sids, column: SID, columns: fieldIdx })
  const series = fresh.size ? seriesRows([...fresh.values()], sids, tags, tagCols) : null
  return { series, points, written: [...fresh.keys()] }
}

/** `_sid`, `_day` and the batch's tag columns of one row per (representative row, day). */
function seriesRows(
  rows: [number, number][],
  ids: BigUint64Array,
  tags: Text[],
  cols: Column[],
): EncodedInsert {
  const w = new RowBinaryWriter()
  const encoded = tags.map((t) => t.dict.map(encodeNullableString))
  for (const [row, day] of rows) {
    w.uint64(ids[row])
    w.uint16(day)
    tags.forEach((t, j) => (t.codes[row] < 0 ? w.uint8(1) : w.raw(encoded[j][t.codes[row]])))
  }
  const columns = [SID, DAY, ...cols.map((c) => c.phys)].map(chIdent)
  return { columns, body: Buffer.from(w.bytes()), format: 'RowBinary' }
}
