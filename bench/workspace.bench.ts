/**
 * Workspace benchmark (`npm run bench:workspace`):
 * 1. ingest (bench/lib/workspace-ingest.ts): gzip'd protobuf bodies as the agent uploads them
 *    (3,000 points, ~1 MiB raw): the single-thread decode rate of one body, then 4 connections
 *    for BENCH_SECONDS against `ferry workspace` (a child process) with 1 (the default) and 2
 *    decode workers, then the same points as line protocol into VictoriaMetrics (when installed)
 *    and the same bodies into a bare node:http server, printed as ratios.
 * 2. query: `M::cpu:(avg(usage_idle)) [1h::1m] BY host` over BENCH_QUERY_POINTS (10M) stored
 *    points of 100 hosts in the last hour, through /v1/query/raw: cold, then the median of 5.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Accounts } from '../src/workspace/store/accounts.js'
import { Catalog } from '../src/workspace/store/catalog.js'
import { Db } from '../src/workspace/store/db.js'
import { qualified } from '../src/workspace/store/names.js'
import { Writer } from '../src/workspace/store/writer.js'
import { toColumns } from '../src/workspace/ingest/columns.js'
import { Kind, newPoint } from '../src/shared/point.js'
import { startChild, type Child } from './lib/child.js'
import { percentile } from './lib/load.js'
import { ingestRuns } from './lib/workspace-ingest.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const QUERY_POINTS = Number(process.env.BENCH_QUERY_POINTS ?? 10_000_000)
const here = (p: string) => new URL(p, import.meta.url).pathname
const DB = { memoryLimit: 1024 ** 3, threads: 0 }

function startWorkspace(dir: string, env: Record<string, string> = {}): Promise<Child> {
  return startChild(
    [here('../src/main.js'), 'workspace'],
    {
      ENV_WORKSPACE_DATA_DIR: dir,
      ENV_WORKSPACE_LISTEN: '127.0.0.1:0',
      ENV_LOG_LEVEL: 'info',
      ...env,
    },
    /"event":"workspace_started","listen":"([^"]+)"/,
  )
}

async function prepare(dir: string): Promise<{ token: string; wsId: string }> {
  const db = await Db.open({ dir, ...DB })
  try {
    const ws = await new Accounts(db).create('bench')
    return { token: ws.token, wsId: ws.id }
  } finally {
    await db.close()
  }
}

/** Stores QUERY_POINTS cpu points straight through SQL (the catalog learns the table first). */
async function load(dir: string, wsId: string): Promise<void> {
  const db = await Db.open({ dir, ...DB })
  try {
    const catalog = new Catalog()
    await catalog.load(async (sql) => (await db.query(sql)).rows)
    const p = newPoint('cpu')
    p.tags.push({ key: 'host', value: 'host-0' }, { key: 'cpu', value: 'cpu-total' })
    for (const key of ['usage_idle', 'usage_user', 'usage_system'])
      p.fields.push({ key, kind: Kind.FLOAT, value: 1 })
    p.time = BigInt(Date.now() - 7_200_000) * 1_000_000n
    await new Writer(db, catalog, {
      maxPendingPoints: 1e6,
      commitMaxPoints: 1e6,
      dedupeWindowMs: 1,
      seriesCategories: ['metric'],
    }).submit({
      workspaceId: wsId,
      category: 'metric',
      tables: toColumns('metric', [p]),
      points: 1,
      pkgId: null,
    })
    const t0 = performance.now()
    const step = Math.floor(3_600_000_000_000 / QUERY_POINTS)
    const parts = catalog.table(wsId, 'M::cpu')!.parts!
    // The series layout: 100 series (one per host; the one already written is host-0), then the
    // points, each naming its host's series.
    await db.execute(
      `INSERT INTO ${qualified(wsId, parts.series)} (_sid, host, cpu)
       SELECT i, 'host-' || i, 'cpu-total' FROM range(1, 100) t(i)`,
    )
    await db.execute(
      `INSERT INTO ${qualified(wsId, parts.points)} ("time", _sid, usage_idle, usage_user, usage_system)
       SELECT $1::BIGINT - i * ${step}, i % 100, random() * 100, random() * 50, random() * 20
       FROM range(${QUERY_POINTS}) t(i)`,
      [BigInt(Date.now()) * 1_000_000n],
    )
    console.log(
      `loaded ${QUERY_POINTS.toLocaleString('en')} points in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    )
  } finally {
    await db.close()
  }
}

async function queryLatency(dir: string, token: string): Promise<void> {
  const ws = await startWorkspace(dir)
  const q = 'M::cpu:(avg(usage_idle)) [1h::1m] BY host'
  const once = async () => {
    const t0 = performance.now()
    const res = await fetch(`${ws.url}/v1/query/raw?token=${token}`, {
      method: 'POST',
      body: JSON.stringify({ queries: [{ query: q }] }),
    })
    const body = (await res.json()) as { content: { series: { values: unknown[] }[] }[] }
    if (res.status !== 200) throw new Error(JSON.stringify(body))
    return { ms: performance.now() - t0, series: body.content[0].series }
  }
  try {
    const cold = await once()
    const warm: number[] = []
    for (let i = 0; i < 5; i++) warm.push((await once()).ms)
    const rows = cold.series.reduce((n, s) => n + s.values.length, 0)
    console.log(
      `query ${q} over ${QUERY_POINTS.toLocaleString('en')} points: cold ${cold.ms.toFixed(0)} ms, warm median ${percentile(warm, 50).toFixed(0)} ms (${cold.series.length} series, ${rows} buckets)`,
    )
  } finally {
    await ws.stop()
  }
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-bench-ws-'))
  try {
    const { token, wsId } = await prepare(dir)
    await ingestRuns(dir, token, SECONDS, startWorkspace)
    await load(dir, wsId)
    await queryLatency(dir, token)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

void main()
