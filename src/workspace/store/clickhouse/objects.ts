/**
 * The object listing (../objects.ts) on ClickHouse: the newest row per name by `LIMIT 1 BY`
 * over the rows in the freshness window, then the filters, counted and paged. Aliases never
 * reuse a column's name (18.16 would read the alias in later expressions).
 */
import type { ClickHouseCatalog } from './catalog.js'
import type { ClickHouseClient } from './client.js'
import type { ObjectPage, ObjectQuery } from '../objects.js'
import { bindParams, chIdent, type Literal } from './sql.js'

export async function clickHouseObjects(
  client: ClickHouseClient,
  catalog: ClickHouseCatalog,
  q: ObjectQuery,
  timeoutMs: number,
): Promise<ObjectPage> {
  const info = catalog.table(q.workspaceId, q.table)
  if (!info || !info.byName.has('name')) return { total: 0, columns: [], rows: [] }
  const params: Literal[] = []
  const add = (v: Literal) => `$${params.push(v)}`
  const text = (k: string) => `toString(${chIdent(k)})`
  const where = q.equals.map(([k, v]) => `${text(k)} = ${add(v)}`)
  if (q.search) {
    const needle = add(q.search.needle)
    const any = q.search.columns.map((k) => `positionUTF8(lowerUTF8(${text(k)}), ${needle}) > 0`)
    where.push(`(${any.join(' OR ')})`)
  }
  const fresh = q.sinceNs === null ? '' : ` WHERE \`time\` >= ${q.sinceNs}`
  const base = `(SELECT * FROM ${catalog.ref(q.workspaceId, q.table)}${fresh} ORDER BY \`time\` DESC LIMIT 1 BY \`name\`)`
  const cond = where.length ? ` WHERE ${where.join(' AND ')}` : ''
  const o = { timeoutMs }
  const total = await client.query(bindParams(`SELECT count() FROM ${base}${cond}`, params), o)
  const r = await client.query(
    bindParams(
      `SELECT * FROM ${base}${cond} ORDER BY \`name\` LIMIT ${q.offset}, ${q.limit}`,
      params,
    ),
    o,
  )
  return { total: Number(total.rows[0][0]), columns: r.columns, rows: r.rows }
}
