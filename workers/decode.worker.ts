/**
 * Piscina worker: decodes one write body per task, and runs the pipeline on its points in
 * this worker's sandbox. Imports only decode and pipeline code (never the HTTP source). The
 * body arrives transferred, a write's task packed (ingest/task-wire.ts); the encoded payload
 * leaves with its CRC-32, moved rather than cloned where it can be, and the body's buffer with
 * it for reuse (ingest/worker-result.ts). A task may bring a spare buffer for its payload
 * (ingest/spare-output.ts). The pipeline engine, the debug runner, the RUM stage
 * and the IP database reader load with the first task that needs them: a worker that never
 * meets one never holds their code (each worker is an isolate of its own, so every module
 * costs once a worker).
 */
import { workerData } from 'node:worker_threads'
import { processTask } from '../src/ingest/process.js'
import type { DecodeResult, DecodeTask, WorkerTask } from '../src/ingest/protocol.js'
import type { DebugResult } from '../src/pipeline/debug/types.js'
import { PipelineHost, type PipelineWorkerConfig } from '../src/pipeline/worker-host.js'
import { adoptRefer } from '../src/pipeline/lib/fn-refer.js'
import { withWorkerHeap, type WorkerHeap } from '../src/ingest/recycle.js'
import { leaving } from '../src/ingest/worker-result.js'
import { isPackedTask, spareOf, unpackTask, type PackedTask } from '../src/ingest/task-wire.js'
import type { RumStage, RumWorkerOptions } from '../src/rum/stage.js'
import { lazyImport } from '../src/shared/lazy-import.js'
import { payloadBuffers } from '../src/shared/payload-room.js'
import { offerSpare, spareSource, unusedSpare } from '../src/ingest/spare-output.js'

type RumModule = typeof import('../src/rum/stage.js')
type DebugModule = typeof import('../src/pipeline/debug/run.js')
type IpDbModule = typeof import('../src/rum/geo/ipdb.js')

const data = workerData as { pipeline?: PipelineWorkerConfig; rum?: RumWorkerOptions } | undefined
const cfg = data?.pipeline
const host = cfg ? new PipelineHost(cfg) : null
let rumStage: Promise<RumStage> | null = null
// Payloads go into the spare buffer a task brings, when it fits (ingest/spare-output.ts).
payloadBuffers(spareSource)

/** The RUM stage, built once, for a RUM write when RUM is on; else null (processTask's null). */
function rumFor(t: DecodeTask): Promise<RumStage> | null {
  const options = data?.rum
  if (!t.rum || !options) return null
  rumStage ??= lazyImport<RumModule>('../src/rum/stage.js', import.meta.url).then((m) =>
    m.createRumStage(options),
  )
  return rumStage
}

export default async function decode(
  message: WorkerTask | PackedTask,
): Promise<(DecodeResult | DebugResult) & WorkerHeap> {
  // Writes arrive packed (ingest/task-wire.ts); pipeline debug requests as objects.
  const task = isPackedTask(message) ? unpackTask(message) : message
  offerSpare(isPackedTask(message) ? spareOf(message) : null)
  // The main thread's IP database, read in place (see rum/geo/ipdb.ts).
  if (task.geo)
    (await lazyImport<IpDbModule>('../src/rum/geo/ipdb.js', import.meta.url)).IpDb.adopt(task.geo)
  // The main thread's refer tables, parsed once per version (pipeline/lib/fn-refer.ts).
  if (task.refer) adoptRefer(task.refer)
  // Each result says how large this thread's heap is now, for recycling (ingest/recycle.ts).
  if ('kind' in task && task.kind === 'pipeline-debug') {
    const { runDebug } = await lazyImport<DebugModule>(
      '../src/pipeline/debug/run.js',
      import.meta.url,
    )
    return withWorkerHeap(await runDebug(task, cfg?.timezone))
  }
  const t = task as DecodeTask
  const rum = rumFor(t)
  // The body's buffer goes back for reuse when the result cannot view it (worker-result.ts),
  // and the spare when the payload did not take it.
  const r = withWorkerHeap(await processTask(t, host, rum && (await rum)))
  return leaving(r, t.body, unusedSpare())
}
