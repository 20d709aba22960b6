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
