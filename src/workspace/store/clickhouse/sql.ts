/**
 * SQL text for ClickHouse 18.16, which has no query parameters: every value a statement
 * carries is a literal made here, and every name an identifier in backquotes, so no key or
 * value can change a statement's meaning.
 */
export function chIdent(name: string): string {
  return `\`${name.replaceAll('\\', '\\\\').replaceAll('`', '\\`')}\``
}

export function chString(v: string): string {
  return `'${v.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`
}

export type Literal = string | number | bigint | boolean | null

export function chLiteral(v: Literal): string {
  if (v === null) return 'NULL'
  if (typeof v === 'string') return chString(v)
  if (typeof v === 'boolean') return v ? '1' : '0'
  if (typeof v === 'number' && !Number.isFinite(v))
    return Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf'
  return String(v)
}

/** A statement's `$1`, `$2`... replaced by the literals of `params` (outside quotes only). */
export function bindParams(sql: string, params: readonly Literal[]): string {
  if (!params.length) return sql
  let out = ''
  let quote: string | null = null
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]
    if (quote) {
      out += c
      if (c === '\\') out += sql[++i] ?? ''
      else if (c === quote) quote = null
      continue
    }
    if (c === "'" || c === '`' || c === '"') quote = c
    const m = c === '$' ? /^\$(\d+)/.exec(sql.slice(i)) : null
    if (!m) {
      out += c
      continue
    }
    const n = Number(m[1])
    if (n < 1 || n > params.length) throw new RangeError(`no parameter $${n}`)
    out += chLiteral(params[n - 1])
    i += m[0].length - 1
  }
  return out
}
