/** DuckDB values as JSON-ready values: BIGINT as a number, other objects as their text. */
export function plain(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v)
  return v === null || typeof v !== 'object' ? v : String(v)
}
