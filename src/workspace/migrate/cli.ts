/**
 * `ferry workspace migrate --to clickhouse`: copies a DuckDB workspace directory (stopped: the
 * file is opened for writing) into the ClickHouse of `[workspace.clickhouse]`. Metadata first,
 * keeping every id, token and key hash, then every table's points in bounded batches
 * (points.ts). A line per table as it finishes, then a summary. Running it again stores
 * nothing twice: a batch whose rows were stored but whose id was not (the process killed
 * between the two) is the one exception, reported when the engine sees it.
 */
import type { Config } from '../../config/schema.js'
import { FerryError } from '../../errors.js'
import { openMigration, type MigrationStores } from '../store/migrate-open.js'
import { copyTable, type TableCopy } from './points.js'

export interface MigrateOptions {
  to: string
  /** The DuckDB workspace directory. */
  from: string
  batchRows: number
  json: boolean
}

interface Summary {
  metadata: Record<string, number>
  tables: TableCopy[]
  residual: number
}

async function copyPoints(s: MigrationStores, o: MigrateOptions, sum: Summary, say: Say) {
  for (const ws of await s.workspaces())
    for (const table of s.source.catalog.tableNames(ws)) {
      const t = await copyTable(s.source, s.target, ws, table, o.batchRows)
      sum.tables.push(t)
      say(`points\t${ws}\t${table}\t${t.rows} rows, ${t.stored} stored now, ${t.batches} batches`, {
        points: t,
      })
    }
}

type Say = (text: string, json: unknown) => void

function summaryLine(sum: Summary): string {
  const metaRows = Object.values(sum.metadata).reduce((a, b) => a + b, 0)
  const rows = sum.tables.reduce((a, t) => a + t.rows, 0)
  const stored = sum.tables.reduce((a, t) => a + t.stored, 0)
  return (
    `migrated ${metaRows} metadata rows and ${rows} points in ${sum.tables.length} tables ` +
    `(${stored} stored now, ${rows - stored} already there); ${sum.residual} batches may be stored twice`
  )
}

export async function migrateCommand(cfg: Config, o: MigrateOptions): Promise<number> {
  if (o.to !== 'clickhouse')
    throw new FerryError('badRequest', `migrate --to: only "clickhouse" is known, not "${o.to}"`)
  if (!(o.batchRows >= 1))
    throw new FerryError('badRequest', '--batch: a number of rows of at least 1')
  const say: Say = (text, json) => console.log(o.json ? JSON.stringify(json) : text)
  const s = await openMigration(cfg.workspace, o.from, cfg['workspace.clickhouse'])
  const sum: Summary = { metadata: {}, tables: [], residual: 0 }
  s.onResidual((reason, req, why) => {
    sum.residual++
    console.error(`warning: batch ${req.pkgId} of ${req.workspaceId} (${reason}): ${why}`)
  })
  try {
    await s.copyMetadata(o.batchRows, (table, rows) => {
      sum.metadata[table] = rows
      say(`meta\t${table}\t${rows} rows`, { meta: table, rows })
    })
    await copyPoints(s, o, sum, say)
  } finally {
    await s.close()
  }
  say(summaryLine(sum), { summary: sum })
  return sum.residual > 0 ? 1 : 0
}
