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
import { columnFor, tableName } from '../store/names.js'
import { Interner } from './intern.js'
import { PointTable } from './point-table.js'
import type { TableBatch } from './columns.js'

/** Field numbers of the key-value message: 2 int, 3 uint, 4 double, 5 bool, 11 string. */
const TYPE_BY_NO: (ColumnType | undefined)[] = []
TYPE_BY_NO[2] = TYPE_BY_NO[3] = TYPE_BY_NO[4] = 'DOUBLE'
TYPE_BY_NO[5] = 'BOOLEAN'
TYPE_BY_NO[11] = 'VARCHAR'

/** One key-value of the current point (reused from point to point). */
interface Kv {
  key: string
  tag: boolean
  type: ColumnType
  value: number | boolean | string
}

class Fallback extends Error {}

/** Interner slots: the measurement name, then a key and a value slot per key-value position. */
const NAME_SLOT = 0

function check(r: PbReader, end: number): void {
  if (r.pos > end) throw new PbError('truncated field')
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
      if (no === 4 && wire === 1) kv.value = r.double()
      else if (no === 11 && wire === 2) kv.value = strings.read(r, 2 * slot + 2)
      else if (wire !== 0) throw new Fallback()
      else if (no === 5) kv.value = r.bool()
      else kv.value = Number(no === 2 ? r.int64() : r.uint64())
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
  time: bigint | null
}

function readPoint(r: PbReader, end: number, p: Reading): void {
  p.n = 0
  p.name = ''
  p.time = null
  while (r.pos < end) {
    const t = r.uvarint()
    const no = t >>> 3
    const wire = t & 7
    if (no === 1 && wire === 2) p.name = p.strings.read(r, NAME_SLOT)
    else if (no === 2 && wire === 2) {
      const len = r.uvarint()
      const kv = (p.kvs[p.n++] ??= { key: '', tag: false, type: 'DOUBLE', value: 0 })
      readKv(r, r.pos + len, kv, p.strings, p.n - 1)
    } else if (no === 3 && wire === 0) p.time = BigInt.asIntN(64, r.bigvarint())
    else throw new Fallback() // warnings and unknown fields
    check(r, end)
  }
}

/** Adds the point's tags first, then its fields, as toColumns does. */
function addPoint(t: PointTable, p: Reading, now: bigint): void {
  const row = t.addRow(p.time ?? now)
  for (const tags of [true, false])
    for (let i = 0; i < p.n; i++) {
      const kv = p.kvs[i]
      if (kv.tag !== tags) continue
      if (!t.set(row, columnFor(kv.key), tags ? 'tag' : 'field', kv.type, kv.value))
        throw new Fallback()
    }
}

/** The batches of a PBPoints body, or null when it needs the general path. */
export function pbToColumns(
  category: Category,
  body: Uint8Array,
  now: bigint,
): { points: number; tables: TableBatch[] } | null {
  const r = new PbReader(body)
  const tables = new Map<string, PointTable>()
  const p: Reading = { strings: new Interner(body), kvs: [], n: 0, name: '', time: null }
  let points = 0
  try {
    while (!r.done()) {
      const t = r.uvarint()
      if (t !== (1 << 3) + 2) throw new Fallback()
      const len = r.uvarint()
      readPoint(r, r.pos + len, p)
      const name = tableName(category, p.name)
      let table = tables.get(name)
      if (!table) tables.set(name, (table = new PointTable(name)))
      addPoint(table, p, now)
      points++
    }
  } catch (e) {
    if (e instanceof Fallback || e instanceof PbError) return null // the general path reports
    throw e
  }
  return { points, tables: [...tables.values()].map((t) => t.finish()) }
}
