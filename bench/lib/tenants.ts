/**
 * The cross-tenant run of `bench:system`: `ferry workspace` with an ingest quota and two
 * workspaces. A sends, on 4 connections without pause, poison bodies (keys and measurements
 * differing only in case) in turn with corpus bodies far over its quota; B writes corpus bodies
 * at a steady pace under the quota. What matters is the share of B's writes answered 200.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Accounts } from '../../src/workspace/store/accounts.js'
import { Db } from '../../src/workspace/store/db.js'
import { startChild } from './child.js'
import { postOnce, runLoad, type LoadResult } from './load.js'
import http from 'node:http'

const main = new URL('../../src/main.js', import.meta.url).pathname
const POISON = Buffer.from(
  [
    'poison,host=a,Host=b v=1',
    'CPU,host=a v=1',
    'cpu,host=a v=2',
    'cpu,host=a,HOST=c V=3,v=4',
  ].join('\n'),
)

export interface TenantsResult {
  quota: number
  a: LoadResult
  b: LoadResult
}

async function prepare(dir: string): Promise<{ a: string; b: string }> {
  const db = await Db.open({ dir, memoryLimit: 1024 ** 3, threads: 0 })
  try {
    const accounts = new Accounts(db)
    return { a: (await accounts.create('a')).token, b: (await accounts.create('b')).token }
  } finally {
    await db.close()
  }
}

/** B: one body every `everyMs` on one connection, for `seconds`. */
async function paced(
  url: string,
  body: Buffer,
  seconds: number,
  everyMs: number,
): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  const result: LoadResult = { ok: 0, failed: 0, seconds, latenciesMs: [], statuses: {} }
  const end = performance.now() + seconds * 1000
  for (let next = performance.now(); next < end; next += everyMs) {
    await postOnce(agent, new URL(url), body, {}, result)
    await new Promise((r) => setTimeout(r, Math.max(0, next + everyMs - performance.now())))
  }
  agent.destroy()
  return result
}

export async function tenantsRun(
  body: Buffer,
  points: number,
  seconds: number,
): Promise<TenantsResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-bench-tenants-'))
  const quota = 5 * points
  try {
    const tokens = await prepare(dir)
    const ws = await startChild(
      [main, 'workspace'],
      {
        ENV_WORKSPACE_DATA_DIR: dir,
        ENV_WORKSPACE_LISTEN: '127.0.0.1:0',
        ENV_WORKSPACE_INGEST_QUOTA: String(quota),
        ENV_LOG_LEVEL: 'info',
      },
      /"event":"workspace_started","listen":"([^"]+)"/,
    )
    try {
      const write = (t: string) => `${ws.url}/v1/write/metric?token=${t}`
      // A alternates poison and corpus bodies: two loads on 2 connections each.
      const [poison, flood, b] = await Promise.all([
        runLoad(write(tokens.a), POISON, seconds, 2),
        runLoad(write(tokens.a), body, seconds, 2),
        paced(write(tokens.b), body, seconds, 500),
      ])
      const a: LoadResult = { ...flood, statuses: { ...flood.statuses } }
      for (const [s, n] of Object.entries(poison.statuses))
        a.statuses[Number(s)] = (a.statuses[Number(s)] ?? 0) + n
      a.ok += poison.ok
      a.failed += poison.failed
      return { quota, a, b }
    } finally {
      await ws.stop()
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
