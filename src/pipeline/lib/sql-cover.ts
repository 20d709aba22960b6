/**
 * SQL obfuscation for `sql_cover()`, the way the reference's obfuscator (Datadog's) prints a
 * query: literals (numbers, quoted strings, dollar-quoted bodies, booleans, NULL) become `?`,
 * comments go, tokens are joined by one space (no space before `,`, none around `.`), and a
 * parenthesised list of nothing but literals collapses to `( ? )`. Identifiers, keywords and
 * quoted identifiers ("x", `x`) stay as written.
 *
 * Linear in the query: one pass to tokenize (a sticky regular expression per token), one to
 * print. An unterminated string or comment takes the rest of the query as that token.
 */
const TOKEN = new RegExp(
  [
    '\\s+',
    '--[^\\n]*',
    '#[^\\n]*',
    '/\\*[\\s\\S]*?(?:\\*/|$)',
    "'(?:[^']|'')*(?:'|$)",
    '(\\$[A-Za-z_]*\\$)[\\s\\S]*?(?:\\1|$)',
    '"(?:[^"]|"")*(?:"|$)',
    '`[^`]*(?:`|$)',
    '0[xX][0-9A-Fa-f]+',
    '\\d+(?:\\.\\d*)?(?:[eE][+-]?\\d+)?|\\.\\d+(?:[eE][+-]?\\d+)?',
    '[A-Za-z_@][A-Za-z0-9_$@]*',
    '\\$\\d+',
    '<=|>=|<>|!=|::|\\|\\||:=|=>',
    '[\\s\\S]',
  ]
    .map((p) => `(?:${p})`)
    .join('|'),
  'y',
)

const LITERAL_WORDS = new Set(['true', 'false', 'null'])

function classify(t: string): string | null {
  if (/^\s/.test(t) || t.startsWith('--') || t.startsWith('#') || t.startsWith('/*')) return null
  if (t[0] === "'" || /^\$[A-Za-z_]*\$/.test(t) || /^\.?\d/.test(t) || /^0[xX]/.test(t)) return '?'
  if (LITERAL_WORDS.has(t.toLowerCase())) return '?'
  return t
}

function tokens(sql: string): string[] {
  const out: string[] = []
  TOKEN.lastIndex = 0
  while (TOKEN.lastIndex < sql.length) {
    const m = TOKEN.exec(sql)
    if (!m) break
    const t = classify(m[0])
    if (t !== null) out.push(t)
  }
  return out
}

/** `( ?, ?, ? )` -> `( ? )`: a group of only literals and commas. */
function collapse(ts: string[]): string[] {
  const out: string[] = []
  for (const t of ts) {
    out.push(t)
    if (t !== ')') continue
    let i = out.length - 2
    while (i >= 0 && (out[i] === '?' || out[i] === ',')) i--
    if (i >= 0 && out[i] === '(' && i < out.length - 2) out.splice(i + 1, out.length, '?', ')')
  }
  return out
}

export function sqlCover(sql: string): string {
  const ts = collapse(tokens(sql))
  let s = ''
  for (let i = 0; i < ts.length; i++) {
    const t = ts[i]
    const glue = i === 0 || t === ',' || t === '.' || ts[i - 1] === '.'
    s += (glue ? '' : ' ') + t
  }
  return s
}
