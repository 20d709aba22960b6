/**
 * The quoted literals the two query languages share (DQL, and the IO filter conditions taken
 * from the reference agent): text between matching quotes, where a backslash escapes the next
 * character (`\n` and `\t` read as newline and tab) unless `escapes` is false, then it is kept.
 * Each language raises its own error for an unterminated literal, so this returns null then.
 */
export function readQuoted(src: string, at: number, escapes: boolean): [string, number] | null {
  const quote = src[at]
  let out = ''
  let i = at + 1
  while (i < src.length && src[i] !== quote) {
    if (escapes && src[i] === '\\' && i + 1 < src.length) {
      const n = src[i + 1]
      out += n === 'n' ? '\n' : n === 't' ? '\t' : n
      i += 2
    } else out += src[i++]
  }
  return i >= src.length ? null : [out, i + 1]
}
