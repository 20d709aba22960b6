/**
 * JSON text of a script value whose integers may be bigints (past 2^53, exact int64): they
 * are written as their digits, as the reference writes an int64 inside a map or list.
 */
const MARK = '\u0000int64:'
const MARKED = /"\\u0000int64:(-?\d+)"/g

export function jsonText(v: unknown): string {
  let big = false
  const text = JSON.stringify(v, (_k, x: unknown) => {
    if (typeof x !== 'bigint') return x
    big = true
    return MARK + x.toString()
  })
  return big ? text.replace(MARKED, '$1') : text
}

const MIN = -(2n ** 63n)
const MAX = 2n ** 63n - 1n
const NUMBER = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y

/** Index just past the string literal opening at `i`. */
function stringEnd(s: string, i: number): number {
  for (i++; i < s.length; i++) {
    if (s[i] === '\\') i++
    else if (s[i] === '"') return i + 1
  }
  return s.length
}

/** The text with every integer literal past 2^53 (within int64) turned into a marked string. */
function markBig(s: string): string {
  let out = ''
  let from = 0
  for (let i = 0; i < s.length;) {
    const c = s[i]
    if (c === '"') i = stringEnd(s, i)
    else if (c === '-' || (c >= '0' && c <= '9')) {
      NUMBER.lastIndex = i
      const m = NUMBER.exec(s)
      const end = m ? i + m[0].length : i + 1
      if (m && !m[1] && !m[2] && !Number.isSafeInteger(Number(m[0]))) {
        const n = BigInt(m[0])
        if (n >= MIN && n <= MAX) {
          out += s.slice(from, i) + JSON.stringify(MARK + m[0])
          from = end
        }
      }
      i = end
    } else i++
  }
  return out + s.slice(from)
}

/**
 * JSON.parse, with integers past 2^53 (within int64) read as exact bigints; the common text
 * with no run of 16 digits takes JSON.parse alone. Throws as JSON.parse on bad text.
 */
export function parseJson(text: string): unknown {
  if (!/\d{16}/.test(text)) return JSON.parse(text)
  return JSON.parse(markBig(text), (_k, v: unknown) =>
    typeof v === 'string' && v.startsWith(MARK) ? BigInt(v.slice(MARK.length)) : v,
  )
}
