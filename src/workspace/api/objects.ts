/**
 * Host and process object lists of the Open API, read from the object points agents upload
 * (class `HOST` and `host_processes`): the newest state of each object (by `name`), paged and
 * ordered by name. `search` matches part of the name (for processes also the process name and
 * command line); any other query parameter naming a column filters on that column's value.
 * Only objects reported within `object_freshness` are listed.
 */
import type { Context } from 'hono'
import { FerryError } from '../../errors.js'
import { tableName, TIME_COLUMN } from '../store/names.js'
import type { WorkspaceDeps, WorkspaceEnv } from './deps.js'
import { ok } from './envelope.js'
import { pageInfo, paging } from './params.js'
import { plain } from '../store/values.js'
import type { TableInfo } from '../store/catalog.js'

const KINDS = {
  host: { objectClass: 'HOST', search: ['name'] },
  process: { objectClass: 'host_processes', search: ['name', 'process_name', 'cmdline'] },
}
const RESERVED = ['pageIndex', 'pageSize', 'search']

/**
 * The oldest time (ns) an object's newest report may have to be listed, or null to list all.
 * An object not reported within the window is gone or stopped; its points stay for DQL.
 */
function freshSince(windowMs: number): bigint | null {
  return windowMs > 0 ? BigInt(Date.now() - windowMs) * 1_000_000n : null
}

/** The query's filters (every key but paging and search); each must be a field of the class. */
function filtersOf(
  query: Record<string, string>,
  info: TableInfo | undefined,
  objectClass: string,
) {
  const filters = Object.keys(query).filter((k) => !RESERVED.includes(k))
  for (const k of filters)
    if (info && !info.byName.has(k))
      throw new FerryError(
        'invalidParameter',
        `unknown filter ${JSON.stringify(k)}: not a field of ${objectClass} objects`,
      )
  return filters
}

/** One listed object: its columns, its time in ms, and its labels. */
function item(columns: string[], row: unknown[], labels: Map<string, string[]>) {
  const rec: Record<string, unknown> = Object.fromEntries(columns.map((k, i) => [k, plain(row[i])]))
  rec[TIME_COLUMN] = Math.floor(Number(rec[TIME_COLUMN]) / 1e6)
  rec.labels = labels.get(String(rec.name)) ?? []
  return rec
}

export async function objectList(
  c: Context<WorkspaceEnv>,
  deps: WorkspaceDeps,
  kind: keyof typeof KINDS,
): Promise<Response> {
  const spec = KINDS[kind]
  const query = c.req.query()
  const p = paging(query)
  const ws = c.get('workspace')
  const table = tableName('object', spec.objectClass)
  const info = deps.engine.catalog.table(ws.id, table)
  const filters = filtersOf(query, info, spec.objectClass)
  if (!info || !info.byName.has('name')) return ok(c, [], pageInfo(p, 0, 0))
  const search = query.search ?? ''
  const r = await deps.engine.objects({
    workspaceId: ws.id,
    table,
    equals: filters.map((k) => [k, query[k]]),
    search: search
      ? { columns: spec.search.filter((k) => info.byName.has(k)), needle: search.toLowerCase() }
      : null,
    sinceNs: freshSince(deps.config.object_freshness),
    offset: (p.pageIndex - 1) * p.pageSize,
    limit: p.pageSize,
  })
  const labels = await deps.labels.forClass(ws.id, spec.objectClass)
  const items = r.rows.map((row) => item(r.columns, row, labels))
  return ok(c, items, pageInfo(p, items.length, r.total))
}
