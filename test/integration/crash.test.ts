/**
 * Crash safety: an agent under write load is killed with SIGKILL at random moments, 20 times,
 * and restarted on the same data directory. Every point that got a 200 must reach the
 * upstream; duplicates (at-least-once) are counted and reported, not hidden.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { startAgent, type AgentProcess } from '../helpers/agent-process.js'
import { SinkServer, waitFor } from '../helpers/sink-server.js'

const KILLS = Number(process.env.CRASH_KILLS ?? 20)

async function writeUntilKilled(
  agent: AgentProcess,
  next: { n: number },
  acked: Set<number>,
): Promise<void> {
  for (;;) {
    const from = next.n
    next.n += 50
    const body = Array.from({ length: 50 }, (_, i) => `crash,t=x n=${from + i}i`).join('\n')
    try {
      const res = await fetch(`${agent.url}/v1/write/metric`, { method: 'POST', body })
      if (res.status !== 200) continue
      for (let i = 0; i < 50; i++) acked.add(from + i)
    } catch {
      return // the agent is gone
    }
  }
}

test(
  `SIGKILL ${KILLS} times under load: every acknowledged point arrives`,
  { timeout: 240_000 },
  async (t) => {
    const sink = new SinkServer()
    const url = await sink.start()
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-crash-'))
    const env = {
      ENV_DATAWAY: url,
      ENV_DATAWAY_RETRY_INITIAL: '20ms',
      ENV_DATAWAY_RETRY_MAX: '100ms',
    }
    const acked = new Set<number>()
    const next = { n: 0 }
    const allLogs: string[] = []
    try {
      for (let k = 0; k < KILLS; k++) {
        const agent = await startAgent(env, '', dataDir)
        const before = acked.size
        const writers = [writeUntilKilled(agent, next, acked), writeUntilKilled(agent, next, acked)]
        // The kill falls at a random moment once this run has acknowledged a write, so a slow
        // start on a loaded machine cannot leave a run with nothing acknowledged.
        await waitFor(() => acked.size > before, 30_000, 'a first acknowledged write')
        await new Promise((r) => setTimeout(r, 150 + Math.random() * 450))
        await agent.stop('SIGKILL')
        await Promise.all(writers)
        allLogs.push(...agent.logs)
      }
      const agent = await startAgent(env, '', dataDir)
      await waitFor(() => missing(sink, acked) === 0, 60_000, 'every acknowledged point').catch(
        (e) => {
          const seen = new Set(sink.values('n').map(Number))
          const lost = [...acked].filter((n) => !seen.has(n))
          const notes = [...allLogs, ...agent.logs]
            .filter((l) => /"level":"(warn|error|fatal)"/.test(l) || /Error|error/.test(l))
            .slice(0, 10)
          throw new Error(
            `${e.message}: ${lost.length} of ${acked.size} missing, e.g. ${lost.slice(0, 5)}; received ${seen.size}\n${notes.join('\n')}`,
          )
        },
      )
      await agent.stop()
      const values = sink.values('n').map(Number)
      const duplicates = values.length - new Set(values).size
      t.diagnostic(
        `acknowledged ${acked.size} points over ${KILLS} kills; received ${values.length}, duplicates ${duplicates}`,
      )
      assert.ok(acked.size > 0)
      assert.equal(missing(sink, acked), 0, 'acknowledged points that never arrived')
    } finally {
      await sink.stop()
    }
  },
)

function missing(sink: SinkServer, acked: Set<number>): number {
  const seen = new Set(sink.values('n').map(Number))
  let n = 0
  for (const v of acked) if (!seen.has(v)) n++
  return n
}
