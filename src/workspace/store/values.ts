/**
 * DuckDB values as JSON-ready values: BIGINT as a number, lists (a list aggregate) as arrays,
 * other objects as their text.
 */
export function plain(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v)
  if (v === null || typeof v !== 'object') return v
  // ClickHouse's lists arrive as JSON arrays, DuckDB's as list values with `items`.
  if (Array.isArray(v)) return v.map(plain)
  const items = (v as { items?: unknown }).items
  return Array.isArray(items) ? items.map(plain) : String(v)
}
