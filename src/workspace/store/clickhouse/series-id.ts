/**
 * The series id of the series layout on ClickHouse: a 64-bit hash of a point's tag set that
 * any process of any version computes alike, with no table lookup, so every workspace instance
 * writes a series under the same id. Invariants (changing any of them splits every series):
 * - The canonical form of a tag set: the tags whose value is not NULL, sorted by key in UTF-8
 *   byte order, each written `key=value` with `\`, `,` and `=` escaped by a `\` before them,
 *   joined by `,`, and encoded as UTF-8. No tags: the empty string.
 * - The hash: SipHash-2-4 with a key of 16 zero bytes over those bytes, the 64-bit result as
 *   an unsigned integer: ClickHouse's own `sipHash64(canonical)`, so SQL can compute it too.
 * - A key missing from a point and a key present with NULL are the same tag set; a tag column
 *   added to a table later leaves the ids of series without that key unchanged.
 */
import SipHash from 'siphash'

const ZERO_KEY = [0, 0, 0, 0]

const escape = (s: string) => s.replace(/[\\,=]/g, (c) => `\\${c}`)

/** UTF-8 byte order (JavaScript's `<` compares UTF-16 units, which differs past U+FFFF). */
function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b))
}

/** The text hashed for a tag set given as key/value pairs in any order. */
export function canonicalTags(tags: Iterable<[string, string | null]>): string {
  const set = [...tags].filter((t): t is [string, string] => t[1] !== null)
  set.sort((x, y) => byteOrder(x[0], y[0]))
  return set.map(([k, v]) => `${escape(k)}=${escape(v)}`).join(',')
}

/** SipHash-2-4 (zero key) of the UTF-8 bytes of `text`, as ClickHouse's `sipHash64`. */
export function sipHash64(text: string): bigint {
  const r = SipHash.hash(ZERO_KEY, Buffer.from(text))
  return (BigInt(r.h >>> 0) << 32n) | BigInt(r.l >>> 0)
}

export function seriesId(tags: Iterable<[string, string | null]>): bigint {
  return sipHash64(canonicalTags(tags))
}
