/**
 * The throughput rows of `bench:system`: the default system under the corpus for `seconds`
 * (accepted and stored points/s, the share stored within the run, the drain time after the
 * load stops, peak RSS, and the peaks of its anonymous part and of the disk buffer's LMDB pages
 * resident), and VictoriaMetrics fed the same bodies the same way.
 */
import { runLoad } from './load.js'
import { sampleMemory, type MemoryPeaks } from './memory-peaks.js'
import { COUNTED_FIELDS, HOST_CORPUS_EPOCH_MS } from '../corpus-hosts.js'
import { distinctBodies, newSystem, removeSystem, startSystem, storedPoints } from './system.js'
import { startVictoria } from './victoria.js'

export interface Row {
  acceptedPerS: number
  storedPerS: number
  /** Stored within the run over accepted. */
  storedShare: number
  drainS: number
  rssMb: number
  /** Peaks of its anonymous memory and of the disk buffer's LMDB pages (memory-peaks.ts). */
  memory: MemoryPeaks
  non2xx: number
}

const DRAIN_LIMIT_MS = 300_000
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** A load run followed by a drain: what one target counts as stored, polled every `stepMs`. */
interface Target {
  writeUrl: string
  stored(): Promise<number>
  stepMs: number
  drainLimitMs: number
  pid: number | undefined
  peakRssMb(): number
}

async function measure(
  t: Target,
  body: Buffer | (() => Buffer),
  points: number,
  seconds: number,
  conns: number,
): Promise<Row> {
  const memory = sampleMemory(t.pid)
  try {
    const r = await runLoad(t.writeUrl, body, seconds, conns)
    const accepted = r.ok * points
    const atEnd = await t.stored()
    const t0 = performance.now()
    let stored = atEnd
    while (stored < accepted && performance.now() - t0 < t.drainLimitMs) {
      await sleep(t.stepMs)
      stored = await t.stored()
    }
    return {
      acceptedPerS: accepted / r.seconds,
      storedPerS: atEnd / r.seconds,
      storedShare: accepted ? atEnd / accepted : 0,
      drainS: (performance.now() - t0) / 1000,
      rssMb: t.peakRssMb(),
      memory: memory.stop(),
      non2xx: r.failed,
    }
  } finally {
    memory.stop()
  }
}

export async function systemRow(
  body: Buffer,
  points: number,
  seconds: number,
  conns: number,
): Promise<Row> {
  const s = await newSystem()
  const agent = await startSystem(s)
  try {
    const target: Target = {
      writeUrl: `${agent.url}/v1/write/metric`,
      stored: async () => {
        let n = 0
        for (const [m, f] of COUNTED_FIELDS)
          n += await storedPoints(agent.url, m, f, HOST_CORPUS_EPOCH_MS)
        return n
      },
      stepMs: 500,
      drainLimitMs: DRAIN_LIMIT_MS,
      pid: agent.proc.pid,
      peakRssMb: () => agent.peakRssMb(),
    }
    return await measure(target, distinctBodies(body), points, seconds, conns)
  } finally {
    await agent.stop()
    removeSystem(s)
  }
}

/** Null when VictoriaMetrics is not installed. */
export async function victoriaRow(
  body: Buffer,
  points: number,
  fieldsPerPoint: number,
  seconds: number,
  conns: number,
): Promise<Row | null> {
  const vm = await startVictoria()
  if (!vm) return null
  try {
    const target: Target = {
      writeUrl: `${vm.url}/write`,
      stored: async () => (await vm.rowsStored()) / fieldsPerPoint,
      stepMs: 250,
      drainLimitMs: 30_000,
      pid: vm.pid,
      peakRssMb: () => vm.peakRssMb(),
    }
    return await measure(target, body, points, seconds, conns)
  } finally {
    await vm.stop()
  }
}
