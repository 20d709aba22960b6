/**
 * Line boundaries and name scanning for line protocol.
 *
 * Invariants:
 * - A line ends at a `\n` that is not inside a quoted field value. A quote only opens a string
 *   once the field section has started and a `=` has been seen since the last `,`, so quotes in
 *   measurements, tags and field keys are literal (influxdb1-client behaviour).
 * - A backslash followed by `,`, `=` or space escapes it in names; any other backslash is literal.
 */

const NL = 10
const SPACE = 32
const QUOTE = 34
const COMMA = 44
const EQ = 61
const BACKSLASH = 92

/** Returns the index of the `\n` that ends the line starting at `i`, or `s.length`. */
export function lineEnd(s: string, i: number): number {
  const n = s.length
  let inFields = false
  let quoted = false
  let equals = 0
  let commas = 0
  while (i < n) {
    const c = s.charCodeAt(i)
    if (c === BACKSLASH && i + 2 < n) {
      i += 2
      continue
    }
    if (c === SPACE) inFields = true
    if (inFields) {
      if (!quoted && c === EQ) equals++
      else if (!quoted && c === COMMA) commas++
      else if (c === QUOTE && equals > commas) quoted = !quoted
    }
    if (c === NL && !quoted) return i
    i++
  }
  return n
}

export function isEscapable(c: number): boolean {
  return c === COMMA || c === EQ || c === SPACE
}

/** Removes the backslash before `,`, `=` and space; keeps every other backslash. */
export function unescapeName(s: string): string {
  let out = ''
  let from = 0
  for (let i = 0; i < s.length - 1; i++) {
    if (s.charCodeAt(i) === BACKSLASH && isEscapable(s.charCodeAt(i + 1))) {
      out += s.slice(from, i)
      from = i + 1
      i++
    }
  }
  return out + s.slice(from)
}

/** Removes the backslash before `"` and `\` inside a quoted string value. */
export function unescapeString(s: string): string {
  let out = ''
  let from = 0
  for (let i = 0; i < s.length - 1; i++) {
    if (s.charCodeAt(i) === BACKSLASH) {
      const next = s.charCodeAt(i + 1)
      if (next === QUOTE || next === BACKSLASH) {
        out += s.slice(from, i)
        from = i + 1
        i++
      }
    }
  }
  return out + s.slice(from)
}
