/**
 * The object listing (objects.ts) in DuckDB: the newest row per name by `QUALIFY`, counted
 * and paged in two statements on reader connections.
 */
import type { Catalog } from './catalog.js'
import type { Db } from './db.js'
import { ident, qualified, TIME_COLUMN } from './names.js'
import type { ObjectPage, ObjectQuery } from './objects.js'

export async function duckDbObjects(db: Db, catalog: Catalog, q: ObjectQuery): Promise<ObjectPage> {
  const info = catalog.table(q.workspaceId, q.table)
  if (!info || !info.byName.has('name')) return { total: 0, columns: [], rows: [] }
  const params: string[] = []
  const add = (v: string) => `$${params.push(v)}`
  const col = (k: string) => ident(info.byName.get(k)!.phys)
  const text = (k: string) => `CAST(${col(k)} AS VARCHAR)`
  const where = q.equals.map(([k, v]) => `${text(k)} = ${add(v)}`)
  if (q.sinceNs !== null) where.push(`${ident(TIME_COLUMN)} >= ${q.sinceNs}`)
  if (q.search) {
    const needle = add(q.search.needle)
    const any = q.search.columns.map((k) => `contains(lower(${text(k)}), ${needle})`)
    where.push(`(${any.join(' OR ')})`)
  }
  const base = `(SELECT * FROM ${qualified(q.workspaceId, info.phys)} QUALIFY row_number() OVER (PARTITION BY ${col('name')} ORDER BY ${ident(TIME_COLUMN)} DESC) = 1)`
  const cond = where.length ? ` WHERE ${where.join(' AND ')}` : ''
  const total = await db.query(`SELECT count(*) FROM ${base}${cond}`, params)
  const r = await db.query(
    `SELECT * FROM ${base}${cond} ORDER BY ${col('name')} LIMIT ${q.limit} OFFSET ${q.offset}`,
    params,
  )
  const logical = new Map(info.columns.map((k) => [k.phys, k.name]))
  return {
    total: Number(total.rows[0][0]),
    columns: r.columns.map((k) => logical.get(k) ?? k),
    rows: r.rows,
  }
}
