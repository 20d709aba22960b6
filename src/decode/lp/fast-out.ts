/**
 * The writing half of the byte-level transcoder: one scanned line (`fast-scan.ts`) as one
 * PBPoints entry, copying key and value bytes from the body. The bytes are exactly those
 * `encodePoint` writes for the point the general path would build (same field order, minimal
 * length prefixes, global tags after the point's own tags).
 *
 * Invariant: a buffer holds room for `need` more bytes after `ensure(need)`; it is reused from
 * task to task (only the result is copied out), so no large zero-filled buffer per body.
 */
import {
  T_FIELD_BOOL,
  T_FIELD_FLOAT,
  T_FIELD_INT,
  T_FIELD_IS_TAG,
  T_FIELD_KEY,
  T_FIELD_STRING,
  T_FIELD_UINT,
  T_POINT_FIELD,
  T_POINT_NAME,
  T_POINT_TIME,
  T_POINTS_ARR,
} from '../codec/pbpoint-wire.js'
import { V_BOOL, V_FLOAT, V_INT, V_STRING, V_UINT, type Line } from './fast-line.js'
import type { Out } from './fast-writer.js'

const lenOf = (n: number) => (n < 128 ? 1 : n < 16384 ? 2 : 3)

function writeTag(o: Out, b: Uint8Array, line: Line, k: number): void {
  const ka = line.keys[2 * k]
  const ke = line.keys[2 * k + 1]
  const va = line.vals[2 * k]
  const ve = line.vals[2 * k + 1]
  const kl = ke - ka - line.kesc[k]
  const vl = ve - va - line.vesc[k]
  if (kl === ke - ka && vl === ve - va && kl + vl < 122) return writeShortTag(o, b, line, k)
  o.buf[o.pos++] = T_POINT_FIELD
  o.putUvarint(lenOf(kl) + kl + lenOf(vl) + vl + 4)
  o.buf[o.pos++] = T_FIELD_KEY
  o.copyEsc(b, ka, ke, line.kesc[k])
  o.buf[o.pos++] = T_FIELD_STRING
  o.copyEsc(b, va, ve, line.vesc[k])
  o.buf[o.pos++] = T_FIELD_IS_TAG
  o.buf[o.pos++] = 1
}

/**
 * The common tag: no escapes, key and value short enough that every length is one byte (the
 * message's `kl + vl + 6` below 128), written with one position kept in a local.
 */
function writeShortTag(o: Out, b: Uint8Array, line: Line, k: number): void {
  const ke = line.keys[2 * k + 1]
  const ve = line.vals[2 * k + 1]
  let ka = line.keys[2 * k]
  let va = line.vals[2 * k]
  const buf = o.buf
  let p = o.pos
  buf[p++] = T_POINT_FIELD
  buf[p++] = ke - ka + (ve - va) + 6
  buf[p++] = T_FIELD_KEY
  buf[p++] = ke - ka
  while (ka < ke) buf[p++] = b[ka++]
  buf[p++] = T_FIELD_STRING
  buf[p++] = ve - va
  while (va < ve) buf[p++] = b[va++]
  buf[p++] = T_FIELD_IS_TAG
  buf[p++] = 1
  o.pos = p
}

function writeValue(o: Out, b: Uint8Array, line: Line, k: number): void {
  const v = line.nums[k]
  switch (line.kinds[k]) {
    case V_INT:
      o.buf[o.pos++] = T_FIELD_INT
      return o.putInt64(v)
    case V_UINT:
      o.buf[o.pos++] = T_FIELD_UINT
      return o.putUvarint(v)
    case V_FLOAT:
      o.buf[o.pos++] = T_FIELD_FLOAT
      return o.double(v) // eight stores, not a typed array `set` call per value
    case V_BOOL:
      o.buf[o.pos++] = T_FIELD_BOOL
      o.buf[o.pos++] = v
      return
    case V_STRING:
      o.buf[o.pos++] = T_FIELD_STRING
      o.copyEsc(b, line.vals[2 * k], line.vals[2 * k + 1], line.vesc[k])
  }
}

function writeField(o: Out, b: Uint8Array, line: Line, k: number): void {
  o.buf[o.pos++] = T_POINT_FIELD
  const mark = o.pos++ // field messages of short keys and scalar values fit a 1-byte length
  const ka = line.keys[2 * k]
  const ke = line.keys[2 * k + 1]
  o.buf[o.pos++] = T_FIELD_KEY
  o.copyEsc(b, ka, ke, line.kesc[k])
  writeValue(o, b, line, k)
  patchLength(o, mark, 1)
}

/** Writes the length of the message after `mark` (which reserved `reserved` bytes). */
function patchLength(o: Out, mark: number, reserved: number): void {
  const start = mark + reserved
  const len = o.pos - start
  const need = lenOf(len)
  if (need !== reserved) {
    o.ensure(need)
    o.buf.copyWithin(mark + need, start, o.pos)
    o.pos += need - reserved
  }
  const save = o.pos
  o.pos = mark
  o.putUvarint(len)
  o.pos = save
}

/** Upper bound of the bytes one line can take in the output. */
export function bound(line: Line, lineBytes: number, extraBytes: number): number {
  return lineBytes * 2 + (line.tags + line.fields) * 16 + extraBytes + 32
}

/**
 * Pre-encoded entries a point may get: global tags after its own tags, required fields after
 * its own fields; `tagsOn[i]`/`fieldsOn[i]` say whether the current point gets entry i.
 */
export interface Additions {
  tags: readonly Uint8Array[]
  tagsOn: Uint8Array
  fields: readonly Uint8Array[]
  fieldsOn: Uint8Array
  /** All entries' bytes together (room to reserve per point). */
  size: number
}

function append(o: Out, entries: readonly Uint8Array[], on: Uint8Array): void {
  for (let x = 0; x < entries.length; x++) {
    if (!on[x]) continue
    o.buf.set(entries[x], o.pos)
    o.pos += entries[x].length
  }
}

/**
 * Appends the point of `line`, leaving out the tags and fields marked in `line.skip`;
 * `hi`/`lo` are the resolved time in ns.
 */
export function writePoint(
  o: Out,
  b: Uint8Array,
  line: Line,
  start: number,
  add: Additions,
  hi: number,
  lo: number,
): void {
  o.buf[o.pos++] = T_POINTS_ARR
  const mark = o.pos
  o.pos += 2
  o.buf[o.pos++] = T_POINT_NAME
  o.copyEsc(b, start, line.nameEnd, line.nameEsc)
  const skip = line.skip
  for (let k = 0; k < line.tags; k++) if (!skip[k]) writeTag(o, b, line, k)
  append(o, add.tags, add.tagsOn)
  const end = line.tags + line.fields
  for (let k = line.tags; k < end; k++) if (!skip[k]) writeField(o, b, line, k)
  append(o, add.fields, add.fieldsOn)
  o.buf[o.pos++] = T_POINT_TIME
  o.varint64(hi, lo)
  patchLength(o, mark, 2)
}
