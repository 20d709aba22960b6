/**
 * Workspace benchmark (`npm run bench:workspace`):
 * 1. ingest: gzip'd protobuf bodies as the agent uploads them (3,000 points, ~1 MiB raw):
 *    first the single-thread decode rate of one body (bench/lib/decode-rate.ts), then
 *    4 connections for BENCH_SECONDS against `ferry workspace` (a child process), points/s
 *    committed and the workspace's CPU per 1,000 points; the same load against a bare node:http
 *    server gives the ratio.
 * 2. query: `M::cpu:(avg(usage_idle)) [1h::1m] BY host` over BENCH_QUERY_POINTS (10M) stored
 *    points of 100 hosts in the last hour, through /v1/query/raw: cold, then the median of 5.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { encodePoint } from '../src/decode/codec/protobuf.js'
import { PbWriter } from '../src/decode/codec/pb-writer.js'
import { parseLines } from '../src/decode/lp/parse.js'
import { Accounts } from '../src/workspace/store/accounts.js'
import { Catalog } from '../src/workspace/store/catalog.js'
import { Db } from '../src/workspace/store/db.js'
import { qualified } from '../src/workspace/store/names.js'
import { Writer } from '../src/workspace/store/writer.js'
import { toColumns } from '../src/workspace/ingest/columns.js'
import { Kind, newPoint } from '../src/shared/point.js'
import { makeBody } from './corpus.js'
import { decodeRate } from './lib/decode-rate.js'
import { startChild, type Child } from './lib/child.js'
import { percentile, runLoad } from './lib/load.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const QUERY_POINTS = Number(process.env.BENCH_QUERY_POINTS ?? 10_000_000)
const POINTS_PER_BODY = 3000
const CONNECTIONS = 4
const here = (p: string) => new URL(p, import.meta.url).pathname
const DB = { memoryLimit: 1024 ** 3, threads: 0 }

function protobufBody(): Buffer {
  const text = makeBody(POINTS_PER_BODY)
  const { points } = parseLines(text, Buffer.from(text))
  const w = new PbWriter()
  for (const p of points) encodePoint(w, p)
  return zlib.gzipSync(w.finish(), { level: 1 })
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

function startWorkspace(dir: string): Promise<Child> {
  return startChild(
    [here('../src/main.js'), 'workspace'],
    { ENV_WORKSPACE_DATA_DIR: dir, ENV_WORKSPACE_LISTEN: '127.0.0.1:0', ENV_LOG_LEVEL: 'info' },
    /"event":"workspace_started","listen":"([^"]+)"/,
  )
}

/** CPU time (user + system, all threads) a process has used so far, from /proc. */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
}

async function ingest(dir: string, token: string): Promise<number> {
  const body = protobufBody()
  const d = decodeRate(body, Math.min(SECONDS, 5))
  console.log(
    `decodeUpload, one thread (gunzip + protobuf to column batches): ${Math.round(d.pointsPerS).toLocaleString('en')} points/s, ${d.usPerPoint.toFixed(2)} µs per point (best of 5 rounds), ${d.cpuUsPerPoint.toFixed(2)} µs of CPU per point`,
  )
  const headers = {
    'Content-Type': 'application/protobuf; proto=com.guance.Point',
    'Content-Encoding': 'gzip',
  }
  const ws = await startWorkspace(dir)
  let rate = 0
  try {
    const r = await runLoad(
      `${ws.url}/v1/write/metric?token=${token}`,
      body,
      SECONDS,
      CONNECTIONS,
      headers,
    )
    rate = (r.ok * POINTS_PER_BODY) / r.seconds
    const cpuPer1k = cpuMs(ws.proc.pid!) / ((r.ok * POINTS_PER_BODY) / 1000)
    console.log(
      `workspace CPU (every thread, start-up included): ${cpuPer1k.toFixed(1)} ms per 1,000 points stored (steadier than points/s on a shared machine)`,
    )
    console.log(
      `workspace ingest: ${Math.round(rate).toLocaleString('en')} points/s committed (${r.ok} bodies of ${POINTS_PER_BODY}, ${(body.length / 1024).toFixed(0)} KiB gzip), p50 ${percentile(r.latenciesMs, 50).toFixed(1)} ms, p99 ${percentile(r.latenciesMs, 99).toFixed(1)} ms, failed ${r.failed}, peak RSS ${ws.peakRssMb().toFixed(0)} MB`,
    )
  } finally {
    await ws.stop()
  }
  const base = await startChild([here('./lib/baseline-server.js')], {}, /listening (\S+)/)
  try {
    const r = await runLoad(`${base.url}/`, body, SECONDS, CONNECTIONS, headers)
    const baseRate = (r.ok * POINTS_PER_BODY) / r.seconds
    console.log(
      `bare node:http reading the same bodies: ${Math.round(baseRate).toLocaleString('en')} points/s; ratio ${(rate / baseRate).toFixed(3)}`,
    )
  } finally {
    await base.stop()
  }
  return rate
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
    await ingest(dir, token)
    await load(dir, wsId)
    await queryLatency(dir, token)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

void main()
