/**
 * The default system for `bench:system`: the compiled agent with its embedded workspace (what
 * `npm start` runs) as a child process on a temp data dir, and what it stored, read back
 * through the agent's own DQL route. The workspace listens on a port fixed for the whole
 * benchmark, so a restarted agent uploads to the same upstream (same cursors, same package ids).
 */
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { NODE_HEAP_FLAGS } from '../../src/shared/heap-flags.js'
import { MALLOC_TUNABLES } from '../../src/shared/malloc.js'
import { startChild, type Child } from './child.js'

const main = new URL('../../src/main.js', import.meta.url).pathname

export async function freePort(): Promise<number> {
  const srv = net.createServer()
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r))
  const port = (srv.address() as net.AddressInfo).port
  await new Promise((r) => srv.close(r))
  return port
}

export interface System {
  dataDir: string
  workspacePort: number
}

export async function newSystem(): Promise<System> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-bench-system-'))
  return { dataDir, workspacePort: await freePort() }
}

export function startSystem(s: System): Promise<Child> {
  return startChild(
    [...NODE_HEAP_FLAGS, main, 'run'],
    {
      // As `npm start` runs it (src/shared/malloc.ts).
      GLIBC_TUNABLES: MALLOC_TUNABLES,
      ENV_HTTP_LISTEN: '127.0.0.1:0',
      ENV_DATA_DIR: s.dataDir,
      ENV_WORKSPACE_LISTEN: `127.0.0.1:${s.workspacePort}`,
      ENV_DEFAULT_ENABLED_INPUTS: '',
      ENV_LOG_LEVEL: 'info',
    },
    /"event":"agent_started","listen":"([^"]+)"/,
  )
}

/**
 * Each call: `body` after a line of its own (`bench_seq`, a sequence number and time), so no
 * two bodies, and no two of the agent's upload bodies, are alike: the workspace stores a body
 * with the content of one already stored once only (`[workspace] dedupe_by_content`), and the
 * same corpus body sent again would count as stored once. The extra point is not counted.
 */
export function distinctBodies(body: Buffer): () => Buffer {
  let seq = 0
  return () => {
    seq++
    const line = `bench_seq n=${seq}i ${BigInt(Date.now()) * 1_000_000n + BigInt(seq)}\n`
    return Buffer.concat([Buffer.from(line), body])
  }
}

export function removeSystem(s: System): void {
  fs.rmSync(s.dataDir, { recursive: true, force: true })
}

const HOUR_MS = 3_600_000

/** Rows of one DQL query over `range` (ms; default the hour either side of now). */
export async function dql(
  agentUrl: string,
  query: string,
  range: [number, number] = [Date.now() - HOUR_MS, Date.now() + HOUR_MS],
): Promise<unknown[][][]> {
  const res = await fetch(`${agentUrl}/v1/query/raw`, {
    method: 'POST',
    body: JSON.stringify({
      queries: [
        {
          query,
          time_range: range,
          disable_slimit: true,
        },
      ],
    }),
  })
  if (res.status !== 200) throw new Error(`query ${query}: ${res.status} ${await res.text()}`)
  const body = (await res.json()) as { content: { series: { values: unknown[][] }[] }[] }
  return body.content[0].series.map((s) => s.values)
}

/**
 * Points of a measurement stored so far (count of one of its fields), with timestamps in the
 * 30 days from `sinceMs` (the host corpus's are in Nov 2023).
 */
export async function storedPoints(
  agentUrl: string,
  measurement: string,
  field: string,
  sinceMs: number,
) {
  const range: [number, number] = [sinceMs, sinceMs + 30 * 24 * HOUR_MS]
  const [values] = await dql(agentUrl, `M::${measurement}:(count(${field}))`, range)
  return Number(values?.[0]?.[1] ?? 0)
}
