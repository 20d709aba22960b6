/**
 * Counts the elements of a JSON array without building it, so that a body holding millions
 * of tiny points is refused before `JSON.parse` materialises them. Linear, allocation-free;
 * stops at `max + 1`. Only the top level is counted, strings and nesting are skipped; a body
 * that is not valid JSON gets some count and fails in `JSON.parse` afterwards.
 */
const QUOTE = 34
const BACKSLASH = 92
const COMMA = 44
const OPEN_ARRAY = 91
const OPEN_OBJECT = 123
const CLOSE_ARRAY = 93
const CLOSE_OBJECT = 125

/** The shortest element and its separator, `0,`: bodies shorter than 2 chars a point pass. */
const MIN_CHARS_PER_ELEMENT = 2

export function countJsonElements(text: string, max: number): number {
  if (text.length < MIN_CHARS_PER_ELEMENT * max) return 0
  let depth = 0
  let count = 0
  let seen = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === QUOTE) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i)
        if (d === BACKSLASH) i++
        else if (d === QUOTE) break
      }
      if (depth === 1) seen = true
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (depth === 1) seen = true
      depth++
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--
    else if (depth === 1 && c === COMMA) {
      if (++count >= max) return max + 1
    } else if (depth === 1 && c > 32) seen = true
  }
  return seen ? count + 1 : 0
}
