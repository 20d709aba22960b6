/**
 * The fixed-rate row of `bench:system`: the default system sent `rate` points/s (one body every
 * `points / rate` seconds, on time whatever the answers take, at most `connections` at once)
 * for `seconds`; then what it stored by the end of the run plus a grace period. An open loop:
 * a slow system is not sent less, so the share stored says whether it keeps up with the rate.
 */
import http from 'node:http'
import { COUNTED_FIELDS, HOST_CORPUS_EPOCH_MS } from '../corpus-hosts.js'
import { postOnce, type LoadResult } from './load.js'
import { sampleMemory, type MemoryPeaks } from './memory-peaks.js'
import { distinctBodies, newSystem, removeSystem, startSystem, storedPoints } from './system.js'

export interface PacedRow {
  sent: number
  accepted: number
  /** Stored when the run plus the grace period ended, over accepted. */
  storedShare: number
  rssMb: number
  /** Peaks of its anonymous memory and of the disk buffer's LMDB pages (memory-peaks.ts). */
  memory: MemoryPeaks
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function paced(url: string, body: () => Buffer, intervalMs: number, seconds: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 })
  const target = new URL(url)
  const result: LoadResult = { ok: 0, failed: 0, seconds, latenciesMs: [], statuses: {} }
  const pending: Promise<void>[] = []
  const t0 = performance.now()
  const n = Math.round((seconds * 1000) / intervalMs)
  for (let i = 0; i < n; i++) {
    const due = t0 + i * intervalMs
    if (due > performance.now()) await sleep(due - performance.now())
    pending.push(postOnce(agent, target, body(), {}, result))
  }
  await Promise.all(pending)
  agent.destroy()
  return { result, sent: n, endedAt: t0 + seconds * 1000 }
}

export async function pacedRow(
  body: Buffer,
  points: number,
  rate: number,
  seconds: number,
  graceMs: number,
): Promise<PacedRow> {
  const s = await newSystem()
  const agent = await startSystem(s)
  const memory = sampleMemory(agent.proc.pid)
  try {
    const url = `${agent.url}/v1/write/metric`
    const run = await paced(url, distinctBodies(body), (points / rate) * 1000, seconds)
    const wait = run.endedAt + graceMs - performance.now()
    if (wait > 0) await sleep(wait)
    let stored = 0
    for (const [m, f] of COUNTED_FIELDS)
      stored += await storedPoints(agent.url, m, f, HOST_CORPUS_EPOCH_MS)
    const accepted = run.result.ok * points
    return {
      sent: run.sent * points,
      accepted,
      storedShare: accepted ? stored / accepted : 0,
      rssMb: agent.peakRssMb(),
      memory: memory.stop(),
    }
  } finally {
    memory.stop()
    await agent.stop()
    removeSystem(s)
  }
}
