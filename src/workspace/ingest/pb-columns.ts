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
import type { ColumnType } from '../store/catalog.js'
import { tableName } from '../store/names.js'
import type { TableBatch } from './columns.js'
import { Interner } from './intern.js'
import { PointTable, type Kv } from './point-table.js'
import { readInt64, type Halves } from './time-column.js'

/** Field numbers of the key-value message: 2 int, 3 uint, 4 double, 5 bool, 11 string. */
const TYPE_BY_NO: (ColumnType | undefined)[] = []
TYPE_BY_NO[2] = TYPE_BY_NO[3] = TYPE_BY_NO[4] = 'DOUBLE'
TYPE_BY_NO[5] = 'BOOLEAN'
TYPE_BY_NO[11] = 'VARCHAR'

class Fallback extends Error {}

/** Interner slots: the measurement name, then a key and a value slot per key-value position. */
const NAME_SLOT = 0

function check(r: PbReader, end: number): void {
  if (r.pos > end) throw new PbError('truncated field')
}

function readValue(r: PbReader, no: number, wire: number, kv: Kv, strings: Interner, slot: number) {
  if (no === 4 && wire === 1) kv.num = r.double()
  else if (no === 11 && wire === 2) kv.str = strings.read(r, 2 * slot + 2)
  else if (wire !== 0) throw new Fallback()
  else if (no === 5) kv.num = r.bool() ? 1 : 0
  else kv.num = Number(no === 2 ? r.int64() : r.uint64())
}

function readKv(r: PbReader, end: number, kv: Kv, strings: Interner, slot: number): void {
  let type: ColumnType | undefined
  kv.tag = false
  while (r.pos < end) {
    const t = r.uvarint()
    const no = t >>> 3
    const wire = t & 7
    if (no === 1 && wire === 2) kv.key = strings.read(r, 2 * slot + 1)
    else if (TYPE_BY_NO[no] !== undefined) {
      if (type !== undefined) throw new Fallback()
      type = TYPE_BY_NO[no]
      readValue(r, no, wire, kv, strings, slot)
    } else if (no === 8 && wire === 0) kv.tag = r.bool()
    else if ((no === 9 && wire === 0) || (no === 10 && wire === 2)) r.skip(wire)
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
    if (no === 1 && wire === 2) p.name = p.strings.read(r, NAME_SLOT)
    else if (no === 2 && wire === 2) {
      const len = r.uvarint()
      const kv = (p.kvs[p.n++] ??= { key: '', tag: false, type: 'DOUBLE', num: 0, str: '' })
      readKv(r, r.pos + len, kv, p.strings, p.n - 1)
    } else if (no === 3 && wire === 0) {
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
      if (t !== (1 << 3) + 2) throw new Fallback()
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
