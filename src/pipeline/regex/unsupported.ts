/**
 * Constructs of backtracking engines (PCRE, JavaScript) that RE2 cannot express, found before
 * RE2's parser sees them so the error names the feature and its exact offset (RE2's own
 * message only quotes a fragment).
 */
export interface Unsupported {
  offset: number
  /** The construct as written (`\1`, `(?=`). */
  text: string
  kind: 'backreference' | 'lookahead' | 'lookbehind' | 'atomic group' | 'conditional'
}

const GROUPS: [string, Unsupported['kind']][] = [
  ['(?<=', 'lookbehind'],
  ['(?<!', 'lookbehind'],
  ['(?=', 'lookahead'],
  ['(?!', 'lookahead'],
  ['(?P=', 'backreference'],
  ['(?>', 'atomic group'],
  ['(?(', 'conditional'],
]

function atEscape(src: string, i: number): Unsupported | null {
  const c = src[i + 1] ?? ''
  if (c >= '1' && c <= '9') return { offset: i, text: `\\${c}`, kind: 'backreference' }
  if (c === 'k' && src[i + 2] === '<') return { offset: i, text: '\\k<', kind: 'backreference' }
  return null
}

/** The first unsupported construct outside character classes, or null. */
export function findUnsupported(src: string): Unsupported | null {
  let inClass = false
  for (let i = 0; i < src.length; i++) {
    const c = src[i]
    if (c === '\\') {
      const u = inClass ? null : atEscape(src, i)
      if (u) return u
      i++
    } else if (inClass) inClass = c !== ']'
    else if (c === '[') {
      inClass = true
      // `[]a]` and `[^]a]`: a leading `]` is a member, not the end.
      if (src[i + 1] === '^') i++
      if (src[i + 1] === ']') i++
    } else if (c === '(' && src[i + 1] === '?') {
      for (const [text, kind] of GROUPS)
        if (src.startsWith(text, i)) return { offset: i, text, kind }
    }
  }
  return null
}

export function describeUnsupported(u: Unsupported): string {
  return `${u.kind} \`${u.text}\` is not supported: patterns use RE2 syntax, which matches in linear time`
}
