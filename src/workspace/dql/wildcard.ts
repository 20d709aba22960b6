/**
 * `wildcard('..')` patterns as regular expressions: `*` is any run of characters, `?` one
 * character, everything else literal, and the pattern covers the whole value.
 */
export function wildcardRegex(pattern: string): string {
  const body = pattern.replace(/[.+^${}()|[\]\\*?]/g, (c) =>
    c === '*' ? '.*' : c === '?' ? '.' : `\\${c}`,
  )
  return `^${body}$`
}
