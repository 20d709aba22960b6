/**
 * ClickHouse's Native format as an HTTP insert body (`INSERT ... FORMAT Native`, 18.16 and
 * later): one block, the number of columns and of rows as LEB128, then each column whole: its
 * name, its type, its values. A `Nullable(T)` column is its null map (one byte per row, 1:
 * null) followed by every row's `T` value (the default for a null row); `String` values are a
 * LEB128 length and the bytes. Columnar, so number columns and the null maps are copied from
 * the decoder's typed arrays in one move each, and the server reads them without parsing rows.
 *
 * Invariants: the body is sized exactly before anything is written (one allocation, no
 * copy at the end); typed arrays are copied in the host's byte order, which must be
 * little-endian as the format is (checked once at load).
 */
import os from 'node:os'
import { FerryError } from '../../../errors.js'
import { putLength } from './rowbinary.js'

if (os.endianness() !== 'LE')
  throw new FerryError('internalError', 'the Native encoder needs a little-endian host')

export type NativeColumn =
  | { name: string; type: 'Int64'; values: BigInt64Array }
  | { name: string; type: 'UInt64'; values: BigUint64Array }
  | { name: string; type: 'Nullable(Float64)'; values: Float64Array; nulls: Uint8Array | null }
  | { name: string; type: 'Nullable(UInt8)'; values: Uint8Array; nulls: Uint8Array | null }
  /** Text as a dictionary and one code per row (-1: null), as the decoder builds it. */
  | { name: string; type: 'Nullable(String)'; dict: string[]; codes: Int32Array }

function lengthOf(n: number): number {
  let size = 1
  for (let v = n; v >= 0x80; v >>>= 7) size++
  return size
}

/** A String value: its length and bytes. */
function encodeString(v: string): Buffer {
  const bytes = Buffer.from(v)
  const out = Buffer.allocUnsafe(lengthOf(bytes.length) + bytes.length)
  bytes.copy(out, putLength(out, 0, bytes.length))
  return out
}

const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength)

/** A column's values after its header, sized first, written later into the block. */
interface Plan {
  head: Buffer[]
  size: number
  write(buf: Buffer, pos: number): number
}

function textPlan(dict: string[], codes: Int32Array): Plan {
  const encoded = dict.map(encodeString)
  const rows = codes.length
  let size = rows // the null map
  for (let i = 0; i < rows; i++) size += codes[i] < 0 ? 1 : encoded[codes[i]].length
  const write = (buf: Buffer, at: number) => {
    let pos = at
    for (let i = 0; i < rows; i++) buf[pos++] = codes[i] < 0 ? 1 : 0
    for (let i = 0; i < rows; i++) {
      const code = codes[i]
      if (code < 0) {
        buf[pos++] = 0 // a null row's value: the empty string
        continue
      }
      const e = encoded[code]
      // Tags are short: a byte loop beats set()'s call for them.
      if (e.length <= 32) for (let j = 0; j < e.length; j++) buf[pos++] = e[j]
      else pos += e.copy(buf, pos)
    }
    return pos
  }
  return { head: [], size, write }
}

/** Values of a typed array, after a null map of `mapRows` bytes (`nulls`, or all zero). */
function arraysPlan(mapRows: number, nulls: Uint8Array | null, values: ArrayBufferView): Plan {
  const bytes = bytesOf(values)
  const write = (buf: Buffer, at: number) => {
    if (nulls) buf.set(nulls, at)
    else buf.fill(0, at, at + mapRows)
    buf.set(bytes, at + mapRows)
    return at + mapRows + bytes.length
  }
  return { head: [], size: mapRows + bytes.length, write }
}

function planOf(c: NativeColumn): Plan {
  let plan: Plan
  if (c.type === 'Nullable(String)') plan = textPlan(c.dict, c.codes)
  else if (c.type === 'Int64' || c.type === 'UInt64') plan = arraysPlan(0, null, c.values)
  else plan = arraysPlan(c.values.length, c.nulls, c.values)
  plan.head = [encodeString(c.name), encodeString(c.type)]
  plan.size += plan.head[0].length + plan.head[1].length
  return plan
}

/** One block of `rows` rows; every column holds exactly `rows` values. */
export function encodeNativeBlock(rows: number, columns: NativeColumn[]): Buffer {
  const plans = columns.map(planOf)
  const size = plans.reduce((s, p) => s + p.size, lengthOf(columns.length) + lengthOf(rows))
  const buf = Buffer.allocUnsafe(size)
  let pos = putLength(buf, putLength(buf, 0, columns.length), rows)
  for (const p of plans) {
    for (const h of p.head) pos += h.copy(buf, pos)
    pos = p.write(buf, pos)
  }
  if (pos !== size)
    throw new FerryError('internalError', `Native block of ${size} bytes written as ${pos}`)
  return buf
}
