/** A real workspace service (DuckDB in a temp dir, HTTP on a free loopback port) for tests. */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { loadConfig } from '../../src/config/load.js'
import { silentLogger } from '../../src/telemetry/logger.js'
import type { QueryResult } from '../../src/workspace/dql/execute.js'
import { WorkspaceService } from '../../src/workspace/service.js'
import { until } from './until.js'

export interface TestWorkspace {
  service: WorkspaceService
  base: string
  token: string
  key: string
  dir: string
  stop(): Promise<void>
}

export async function startWorkspace(env: Record<string, string> = {}): Promise<TestWorkspace> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-ws-'))
  const { config } = loadConfig('/nonexistent', { ENV_WORKSPACE_LISTEN: '127.0.0.1:0', ...env })
  const ch = config['workspace.clickhouse']
  const service = new WorkspaceService(config.workspace, dir, silentLogger(), {}, ch)
  await service.start()
  const ws = await service.ensureWorkspace('test')
  const { key } = await service.deps!.accounts.createKey('test', 'test-key')
  return {
    service,
    base: `http://127.0.0.1:${service.address().port}`,
    token: ws.token,
    key,
    dir,
    async stop() {
      await service.shutdown()
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

export async function writeLp(w: TestWorkspace, category: string, body: string): Promise<Response> {
  return fetch(`${w.base}/v1/write/${category}?token=${w.token}`, { method: 'POST', body })
}

export interface Answer {
  code: number
  content: QueryResult[]
  errorCode: string
  message: string
  success: boolean
}

export async function query(
  w: TestWorkspace,
  queries: unknown[],
  extra = {},
): Promise<{ status: number; body: Answer }> {
  const res = await fetch(`${w.base}/v1/query/raw?token=${w.token}`, {
    method: 'POST',
    body: JSON.stringify({ queries, ...extra }),
  })
  return { status: res.status, body: (await res.json()) as Answer }
}

/** Calls `fn` until it returns something other than null (uploads are asynchronous). */
export function poll<T>(fn: () => Promise<T | null>, timeoutMs = 15_000): Promise<T> {
  return until(fn, timeoutMs)
}

/** One DQL query through an agent's `/v1/query/raw`, as rows by column; null when no series. */
export async function agentRows(
  agentUrl: string,
  q: string,
): Promise<Record<string, unknown>[] | null> {
  const res = await fetch(`${agentUrl}/v1/query/raw`, {
    method: 'POST',
    body: JSON.stringify({ queries: [{ query: q }] }),
  })
  const body = (await res.json()) as {
    content?: { series?: { columns: string[]; values: unknown[][] }[] }[]
  }
  const s = body.content?.[0]?.series?.[0]
  if (!s) return null
  return s.values.map((v) => Object.fromEntries(s.columns.map((c, i) => [c, v[i]])))
}
