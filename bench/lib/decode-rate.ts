/**
 * Single-thread throughput of the workspace's upload decoder (`decodeUpload`: gunzip, then
 * the protobuf fast path to column batches) on one body, in this process: no HTTP, no worker,
 * no storage, so it isolates the decode CPU per point that the ingest figures include.
 */
import { decodeUpload, type UploadTask } from '../../src/workspace/ingest/decode.js'
import { fingerprintReady } from '../../src/workspace/ingest/fingerprint.js'

export interface DecodeRate {
  /** Wall clock, the best of 5 rounds. */
  pointsPerS: number
  usPerPoint: number
  /** CPU time of the process (every thread, GC helpers included) over all rounds. */
  cpuUsPerPoint: number
}

/** Decodes `body` repeatedly for about `seconds` after a warm-up, in 5 rounds. */
export async function decodeRate(body: Uint8Array, seconds: number): Promise<DecodeRate> {
  await fingerprintReady
  const task: UploadTask = {
    body,
    category: 'metric',
    contentType: 'application/protobuf; proto=com.guance.Point',
    encoding: 'gzip',
    maxBytes: 64 * 1024 * 1024,
    now: BigInt(Date.now()) * 1_000_000n,
  }
  const once = (): number => {
    const r = decodeUpload(task)
    if (!r.ok) throw new Error(r.error.message)
    return r.points
  }
  for (let i = 0; i < 20; i++) once()
  let best = Infinity
  let total = 0
  const cpu0 = process.cpuUsage()
  for (let round = 0; round < 5; round++) {
    const t0 = performance.now()
    let points = 0
    while (performance.now() - t0 < (seconds * 1000) / 5) points += once()
    best = Math.min(best, (performance.now() - t0) / points)
    total += points
  }
  const cpu = process.cpuUsage(cpu0)
  const cpuUsPerPoint = (cpu.user + cpu.system) / total
  return { pointsPerS: 1000 / best, usPerPoint: best * 1000, cpuUsPerPoint }
}
