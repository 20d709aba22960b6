/**
 * The fast path of the upload decoder: a PBPoints body (the agent's upload format) straight
 * into column batches, without a Point object per point. It produces exactly what
 * `toColumns(category, decodePoints(body))` produces (same tables, column order and types,
 * same values) for the bodies it accepts, and returns null (the caller takes the general
 * path) for anything less common: array or bytes values, a tag that is not a string, a key
 * given twice in a point, a key whose type changes, a value-less field, warnings.
 */
import type { Category } from '../../shared/category.js'
import { PbError, PbReader } from '../../decode/codec/pb-reader.js'
import * as W from '../../decode/codec/pbpoint-wire.js'
import type { ColumnType } from '../store/catalog.js'
import { tableName } from '../store/names.js'
import type { TableBatch } from './columns.js'
import { Interner } from './intern.js'
import { PointTable, type Kv } from './point-table.js'
import { readInt64, type Halves } from './time-column.js'

/** Column type by the value's field number in the key-value message. */
const TYPE_BY_NO: (ColumnType | undefined)[] = []
TYPE_BY_NO[W.FIELD_INT] = TYPE_BY_NO[W.FIELD_UINT] = TYPE_BY_NO[W.FIELD_FLOAT] = 'DOUBLE'
TYPE_BY_NO[W.FIELD_BOOL] = 'BOOLEAN'
TYPE_BY_NO[W.FIELD_STRING] = 'VARCHAR'

class Fallback extends Error {}

/** Interner slots: the measurement name, then a key and a value slot per key-value position. */
const NAME_SLOT = 0

function check(r: PbReader, end: number): void {
  if (r.pos > end) throw new PbError('truncated field')
}

function readValue(r: PbReader, no: number, wire: number, kv: Kv, strings: Interner, slot: number) {
  if (no === W.FIELD_FLOAT && wire === W.WIRE_I64) kv.num = r.double()
  else if (no === W.FIELD_STRING && wire === W.WIRE_LEN) kv.str = strings.read(r, 2 * slot + 2)
  else if (wire !== W.WIRE_VARINT) throw new Fallback()
  else if (no === W.FIELD_BOOL) kv.num = r.bool() ? 1 : 0
  else kv.num = Number(no === W.FIELD_INT ? r.int64() : r.uint64())
}

function readKv(r: PbReader, end: number, kv: Kv, strings: Interner, slot: number): void {
  let type: ColumnType | undefined
  kv.tag = false
  while (r.pos < end) {
    const t = r.uvarint()
    const no = t >>> 3
    const wire = t & 7
    if (no === W.FIELD_KEY && wire === W.WIRE_LEN) kv.key = strings.read(r, 2 * slot + 1)
    else if (TYPE_BY_NO[no] !== undefined) {
      if (type !== undefined) throw new Fallback()
      type = TYPE_BY_NO[no]
      readValue(r, no, wire, kv, strings, slot)
    } else if (no === W.FIELD_IS_TAG && wire === W.WIRE_VARINT) kv.tag = r.bool()
    else if (
      (no === W.FIELD_TYPE && wire === W.WIRE_VARINT) ||
      (no === W.FIELD_UNIT && wire === W.WIRE_LEN)
    )
      r.skip(wire)
    else throw new Fallback() // arrays, bytes, unknown fields: the general path
    check(r, end)
  }
  if (type === undefined || (kv.tag && type !== 'VARCHAR')) throw new Fallback()
  kv.type = kv.tag ? 'VARCHAR' : type
}

interface Reading {
  strings: Interner
  kvs: Kv[]
  n: number
  name: string
  hasTime: boolean
  time: Halves
}

function readPoint(r: PbReader, end: number, p: Reading): void {
  p.n = 0
  p.name = ''
  p.hasTime = false
  while (r.pos < end) {
    const t = r.uvarint()
    const no = t >>> 3
    const wire = t & 7
    if (no === W.POINT_NAME && wire === W.WIRE_LEN) p.name = p.strings.read(r, NAME_SLOT)
    else if (no === W.POINT_FIELD && wire === W.WIRE_LEN) {
      const len = r.uvarint()
      const kv = (p.kvs[p.n++] ??= { key: '', tag: false, type: 'DOUBLE', num: 0, str: '' })
      readKv(r, r.pos + len, kv, p.strings, p.n - 1)
    } else if (no === W.POINT_TIME && wire === W.WIRE_VARINT) {
      readInt64(r, p.time)
      p.hasTime = true
    } else throw new Fallback() // warnings and unknown fields
    check(r, end)
  }
}

/** The tables of one body by name; the last one found is kept, as points mostly repeat it. */
class Tables {
  readonly byName = new Map<string, PointTable>()
  private lastMeasurement: string | null = null
  private last: PointTable | null = null

  constructor(private readonly category: Category) {}

  of(measurement: string): PointTable {
    if (measurement === this.lastMeasurement && this.last) return this.last
    const name = tableName(this.category, measurement)
    let table = this.byName.get(name)
    if (!table) this.byName.set(name, (table = new PointTable(name)))
    this.lastMeasurement = measurement
    return (this.last = table)
  }
}

/** The batches of a PBPoints body, or null when it needs the general path. */
export function pbToColumns(
  category: Category,
  body: Uint8Array,
  now: bigint,
): { points: number; tables: TableBatch[]; timed: boolean } | null {
  const r = new PbReader(body)
  const tables = new Tables(category)
  const strings = new Interner(body)
  const p: Reading = { strings, kvs: [], n: 0, name: '', hasTime: false, time: { lo: 0, hi: 0 } }
  let points = 0
  let timed = true
  try {
    while (!r.done()) {
      const t = r.uvarint()
      if (t !== W.T_POINTS_ARR) throw new Fallback()
      const len = r.uvarint()
      readPoint(r, r.pos + len, p)
      const table = tables.of(p.name)
      timed &&= p.hasTime
      const row = p.hasTime ? table.times.push(p.time) : table.times.pushBig(now)
      if (!table.add(p.kvs, p.n, row)) throw new Fallback()
      points++
    }
  } catch (e) {
    if (e instanceof Fallback || e instanceof PbError) return null // the general path reports
    throw e
  }
  return { points, tables: [...tables.byName.values()].map((t) => t.finish()), timed }
}
