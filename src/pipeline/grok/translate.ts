/**
 * Go (RE2) regular-expression syntax the reference's patterns use, rewritten for JavaScript:
 * `(?P<name>` groups, POSIX classes, `\A` and `\z`, and the inline flags `(?s)` (applied to the
 * definition that opens with it), `(?i)` and `(?m)` (applied to the whole expression).
 */
const POSIX: Record<string, string> = {
  alpha: 'a-zA-Z',
  digit: '0-9',
  alnum: 'a-zA-Z0-9',
  upper: 'A-Z',
  lower: 'a-z',
  space: '\\s',
  punct: '!-\\/:-@\\[-`{-~',
  xdigit: '0-9A-Fa-f',
  word: '\\w',
  blank: ' \\t',
}

export interface Translated {
  source: string
  flags: string
}

/** Rewrites `.` outside classes to match newlines too (the effect of `(?s)`). */
function dotAll(src: string): string {
  let out = ''
  let inClass = false
  for (let i = 0; i < src.length; i++) {
    const c = src[i]
    if (c === '\\') {
      out += c + (src[i + 1] ?? '')
      i++
    } else if (inClass) {
      if (c === ']') inClass = false
      out += c
    } else if (c === '[') {
      inClass = true
      out += c
    } else out += c === '.' ? '[\\s\\S]' : c
  }
  return out
}

export function translateGo(src: string): Translated {
  let flags = ''
  let s = src
  const inline = /^\(\?([imsU]+)\)/.exec(s)
  if (inline) {
    s = s.slice(inline[0].length)
    if (inline[1].includes('s')) s = dotAll(s)
    if (inline[1].includes('i')) flags += 'i'
    if (inline[1].includes('m')) flags += 'm'
  }
  s = s
    .replace(/\(\?P</g, '(?<')
    .replace(/\[:(\w+):\]/g, (m, name: string) => POSIX[name] ?? m)
    .replace(/\\A/g, '^')
    .replace(/\\z/g, '$')
  return { source: s, flags }
}

/**
 * Group indices of the named groups in `source`, in order of their opening parenthesis.
 * Counts every capturing group (plain `(` and `(?<name>`), skipping escapes and classes.
 */
export function groupIndices(source: string): Map<string, number> {
  const out = new Map<string, number>()
  let n = 0
  let inClass = false
  for (let i = 0; i < source.length; i++) {
    const c = source[i]
    if (c === '\\') i++
    else if (inClass) inClass = c !== ']'
    else if (c === '[') inClass = true
    else if (c === '(') {
      if (source[i + 1] !== '?') n++
      else if (source[i + 2] === '<' && source[i + 3] !== '=' && source[i + 3] !== '!') {
        n++
        const end = source.indexOf('>', i)
        out.set(source.slice(i + 3, end), n)
      }
    }
  }
  return out
}
