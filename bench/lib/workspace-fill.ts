/**
 * A workspace for the query benchmarks: `ferry workspace` as a child process, and a data
 * directory filled straight through SQL with `points` cpu points of 100 hosts (`h0`..`h99`,
 * region east or west) over the last hour in the series layout, so that loading 10M points
 * takes seconds instead of an ingest run.
 */
import { Accounts } from '../../src/workspace/store/accounts.js'
import { Catalog } from '../../src/workspace/store/catalog.js'
import { Db } from '../../src/workspace/store/db.js'
import { qualified } from '../../src/workspace/store/names.js'
import { Writer } from '../../src/workspace/store/writer.js'
import { toColumns } from '../../src/workspace/ingest/columns.js'
import { Kind, newPoint, type Point } from '../../src/shared/point.js'
import { startChild, type Child } from './child.js'

const here = (p: string) => new URL(p, import.meta.url).pathname
export const DB = { memoryLimit: 1024 ** 3, threads: 0 }

export function startWorkspace(dir: string, env: Record<string, string> = {}): Promise<Child> {
  return startChild(
    [here('../../src/main.js'), 'workspace'],
    {
      ENV_WORKSPACE_DATA_DIR: dir,
      ENV_WORKSPACE_LISTEN: '127.0.0.1:0',
      ENV_LOG_LEVEL: 'info',
      ...env,
    },
    /"event":"workspace_started","listen":"([^"]+)"/,
  )
}

export async function prepare(dir: string): Promise<{ token: string; wsId: string }> {
  const db = await Db.open({ dir, ...DB })
  try {
    const ws = await new Accounts(db).create('bench')
    return { token: ws.token, wsId: ws.id }
  } finally {
    await db.close()
  }
}

/** Writes one point so the catalog (and the table) exist; the rest goes in by SQL. */
async function seed(
  db: Db,
  catalog: Catalog,
  wsId: string,
  category: 'metric' | 'logging',
  p: Point,
) {
  await new Writer(db, catalog, {
    maxPendingPoints: 1e6,
    commitMaxPoints: 1e6,
    dedupeWindowMs: 1,
    seriesCategories: ['metric'],
  }).submit({
    workspaceId: wsId,
    category,
    tables: toColumns(category, [p]),
    points: 1,
    pkgId: null,
  })
}

/** Stores `points` cpu points straight through SQL, and `logs` nginx log rows when asked. */
export async function fill(dir: string, wsId: string, points: number, logs = 0): Promise<void> {
  const db = await Db.open({ dir, ...DB })
  try {
    const catalog = new Catalog()
    await catalog.load(async (sql) => (await db.query(sql)).rows)
    const p = newPoint('cpu')
    p.tags.push(
      { key: 'host', value: 'h0' },
      { key: 'cpu', value: 'cpu-total' },
      { key: 'region', value: 'west' },
    )
    for (const key of ['usage_idle', 'usage_user', 'usage_system'])
      p.fields.push({ key, kind: Kind.FLOAT, value: 1 })
    p.time = BigInt(Date.now() - 7_200_000) * 1_000_000n
    await seed(db, catalog, wsId, 'metric', p)
    const t0 = performance.now()
    const step = Math.floor(3_600_000_000_000 / points)
    const parts = catalog.table(wsId, 'M::cpu')!.parts!
    // The series layout: 100 series (one per host; the one already written is h0), then the
    // points, each naming its host's series.
    await db.execute(
      `INSERT INTO ${qualified(wsId, parts.series)} (_sid, host, cpu, region)
       SELECT i, 'h' || i, 'cpu-total', CASE WHEN i % 2 = 0 THEN 'west' ELSE 'east' END FROM range(1, 100) t(i)`,
    )
    await db.execute(
      `INSERT INTO ${qualified(wsId, parts.points)} ("time", _sid, usage_idle, usage_user, usage_system)
       SELECT $1::BIGINT - i * ${step}, i % 100, random() * 100, (${points} - i) / 100, random() * 20
       FROM range(${points}) t(i)`,
      [BigInt(Date.now()) * 1_000_000n],
    )
    if (logs) await fillLogs(db, catalog, wsId, logs)
    console.log(
      `loaded ${points.toLocaleString('en')} points in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    )
  } finally {
    await db.close()
  }
}

async function fillLogs(db: Db, catalog: Catalog, wsId: string, rows: number): Promise<void> {
  const p = newPoint('nginx')
  p.tags.push({ key: 'status', value: 'info' })
  p.fields.push({ key: 'message', kind: Kind.STRING, value: 'GET / ok' })
  p.time = BigInt(Date.now() - 7_200_000) * 1_000_000n
  await seed(db, catalog, wsId, 'logging', p)
  const info = catalog.table(wsId, 'L::nginx')!
  const col = (n: string) => `"${info.byName.get(n)!.phys}"`
  const step = Math.floor(3_600_000_000_000 / rows)
  await db.execute(
    `INSERT INTO ${qualified(wsId, info.phys)} ("time", ${col('status')}, ${col('message')})
     SELECT $1::BIGINT - i * ${step}, ['info', 'warn', 'error'][i % 3 + 1], 'GET /' || i
     FROM range(${rows}) t(i)`,
    [BigInt(Date.now()) * 1_000_000n],
  )
}
