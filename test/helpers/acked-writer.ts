/**
 * Load with a ledger, for the exactly-once tests: writers send bodies of unique values of field
 * `n` (measurement `exo`) to an agent and note every value acknowledged with a 200; `settle`
 * waits until the workspace holds every one and tallies what it stored.
 */
import type { AgentProcess } from './agent-process.js'
import { storedValues, tally } from './workspace-process.js'

export const POINTS = 20

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Writes bodies of POINTS unique values from `next.n` on until `stop()` or the agent is gone. */
export function writer(agent: AgentProcess, next: { n: number }, acked: Set<number>) {
  let stopped = false
  const done = (async () => {
    while (!stopped) {
      const from = next.n
      next.n += POINTS
      const body = Array.from({ length: POINTS }, (_, i) => `exo,t=x n=${from + i}i`).join('\n')
      try {
        const res = await fetch(`${agent.url}/v1/write/metric`, { method: 'POST', body })
        if (res.status === 200) for (let i = 0; i < POINTS; i++) acked.add(from + i)
      } catch {
        return // the agent is gone
      }
    }
  })()
  return { done, stop: () => void (stopped = true) }
}

/** Waits until `count` more values are acknowledged (or 10 s), so every round carries load. */
export async function acknowledged(acked: Set<number>, count: number): Promise<void> {
  const target = acked.size + count
  const until = Date.now() + 10_000
  while (acked.size < target && Date.now() < until) await sleep(20)
}

/** Waits until every acknowledged value is stored in the workspace at `url`, then tallies. */
export async function settle(url: string, token: string, acked: Set<number>, timeoutMs = 90_000) {
  const until = Date.now() + timeoutMs
  for (;;) {
    const stored = await storedValues(url, token, 'exo', 'n').catch(() => [])
    const t = tally(acked, stored)
    if (t.lost === 0 || Date.now() > until) return { ...t, stored: stored.length }
    await sleep(250)
  }
}
