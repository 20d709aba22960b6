/**
 * Stores the rows of one body: one insert per table, RowBinary (insert.ts) or, for a table in
 * the series layout, its series rows then its points (series-insert.ts).
 *
 * Invariant: a failure after the first table's insert leaves the body stored in part; that is
 * told to the residual listener (residual.ts) before the error goes on to the caller.
 */
import type { WriteRequest, WriteResult } from '../write-request.js'
import type { ClickHouseCatalog } from './catalog.js'
import type { ClickHouseClient } from './client.js'
import { encodeBatch } from './insert.js'
import type { ResidualListener } from './residual.js'
import { insertSeries, type SeriesSeen } from './series-insert.js'

/** One insert per table; a failure after the first leaves the body stored in part. */
export async function storeBody(
  client: ClickHouseClient,
  catalog: ClickHouseCatalog,
  seen: SeriesSeen,
  req: WriteRequest,
  opts: { timeoutMs: number; residual: ResidualListener },
): Promise<WriteResult> {
  let done = 0
  const o = {
    timeoutMs: opts.timeoutMs,
    settings: catalog.layout.insertSettings(req.timed ?? false),
  }
  try {
    for (const batch of req.tables) {
      const info = await catalog.prepare(req.workspaceId, batch)
      const table = catalog.pointsRef(req.workspaceId, batch.table)
      if (info.parts) await insertSeries(client, table, info, batch, seen, o)
      else {
        const e = encodeBatch(batch, info)
        await client.insert(table, e.columns, e.body, o, e.format)
      }
      done++
    }
  } catch (e) {
    if (done > 0) opts.residual('partial', req, (e as Error).message)
    throw e
  }
  return { stored: req.points, duplicate: false }
}
