/**
 * The series id of the series layout on ClickHouse: a 64-bit hash of a point's tag set that
 * any process of any version computes alike, with no table lookup, so every workspace instance
 * writes a series under the same id. Invariants (changing any of them splits every series):
 * - The canonical form of a tag set: the tags whose value is not NULL, sorted by key in UTF-8
 *   byte order, each written `key=value` with `\`, `,` and `=` escaped by a `\` before them,
 *   joined by `,`, and encoded as UTF-8. No tags: the empty string.
 * - The hash: SipHash-2-4 with a key of 16 zero bytes over those bytes, the 64-bit result as
 *   an unsigned integer: ClickHouse's own `sipHash64(canonical)`, so SQL can compute it too
 *   (the `siphash24` package, WebAssembly: a batch of new series hashes each tag set once).
 * - A key missing from a point and a key present with NULL are the same tag set; a tag column
 *   added to a table later leaves the ids of series without that key unchanged.
 */
import siphash24 from 'siphash24'

const ZERO_KEY = new Uint8Array(16)
const out = Buffer.alloc(8)

/** A key or value as the canonical form writes it. */
export const escapeTag = (s: string) => s.replace(/[\\,=]/g, (c) => `\\${c}`)

/** UTF-8 byte order (JavaScript's `<` compares UTF-16 units, which differs past U+FFFF). */
function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b))
}

/** The text hashed for a tag set given as key/value pairs in any order. */
export function canonicalTags(tags: Iterable<[string, string | null]>): string {
  const set = [...tags].filter((t): t is [string, string] => t[1] !== null)
  set.sort((x, y) => byteOrder(x[0], y[0]))
  return set.map(([k, v]) => `${escapeTag(k)}=${escapeTag(v)}`).join(',')
}

/** SipHash-2-4 (zero key) of the UTF-8 bytes of `text`, as ClickHouse's `sipHash64`. */
export function sipHash64(text: string): bigint {
  siphash24(Buffer.from(text), ZERO_KEY, out)
  return out.readBigUInt64LE(0)
}

export function seriesId(tags: Iterable<[string, string | null]>): bigint {
  return sipHash64(canonicalTags(tags))
}

/**
 * Ids of many tag sets over one list of keys (a batch's tag columns), as `seriesId` gives them:
 * the keys are sorted and escaped once, and each value is escaped once by the caller.
 */
export class TagSetIds {
  private readonly order: number[]
  private readonly prefixes: string[]

  constructor(keys: string[]) {
    this.order = keys.map((_, i) => i).sort((a, b) => byteOrder(keys[a], keys[b]))
    this.prefixes = keys.map((k) => `${escapeTag(k)}=`)
  }

  /** `escaped[i]`: the value of the i-th key through `escapeTag`, or null (no such tag). */
  id(escaped: (string | null)[]): bigint {
    let text = ''
    for (const i of this.order) {
      const v = escaped[i]
      if (v !== null) text += `${text ? ',' : ''}${this.prefixes[i]}${v}`
    }
    return sipHash64(text)
  }
}
