/**
 * Piscina worker: decodes one write body per task, and runs the pipeline on its points in
 * this worker's sandbox. Imports only decode and pipeline code (never the HTTP source). The
 * body arrives transferred, a write's task packed (ingest/task-wire.ts); the encoded payload
 * leaves with its CRC-32, moved rather than cloned where it can be, and the body's buffer with
 * it for reuse (ingest/worker-result.ts).
 */
import { workerData } from 'node:worker_threads'
import { processTask } from '../src/ingest/process.js'
import type { DecodeResult, DecodeTask, WorkerTask } from '../src/ingest/protocol.js'
import { runDebug } from '../src/pipeline/debug/run.js'
import type { DebugResult } from '../src/pipeline/debug/types.js'
import { PipelineHost, type PipelineWorkerConfig } from '../src/pipeline/worker-host.js'
import { IpDb } from '../src/rum/geo/ipdb.js'
import { adoptRefer } from '../src/pipeline/lib/fn-refer.js'
import { withWorkerHeap, type WorkerHeap } from '../src/ingest/recycle.js'
import { leaving } from '../src/ingest/worker-result.js'
import { isPackedTask, unpackTask, type PackedTask } from '../src/ingest/task-wire.js'
import { createRumStage, type RumWorkerOptions } from '../src/rum/stage.js'

const data = workerData as { pipeline?: PipelineWorkerConfig; rum?: RumWorkerOptions } | undefined
const cfg = data?.pipeline
const host = cfg ? new PipelineHost(cfg) : null
const rum = data?.rum ? createRumStage(data.rum) : null

export default async function decode(
  message: WorkerTask | PackedTask,
): Promise<(DecodeResult | DebugResult) & WorkerHeap> {
  // Writes arrive packed (ingest/task-wire.ts); pipeline debug requests as objects.
  const task = isPackedTask(message) ? unpackTask(message) : message
  // The main thread's IP database, read in place (see rum/geo/ipdb.ts).
  if (task.geo) IpDb.adopt(task.geo)
  // The main thread's refer tables, parsed once per version (pipeline/lib/fn-refer.ts).
  if (task.refer) adoptRefer(task.refer)
  // Each result says how large this thread's heap is now, for recycling (ingest/recycle.ts).
  if ('kind' in task && task.kind === 'pipeline-debug')
    return withWorkerHeap(await runDebug(task, cfg?.timezone))
  const t = task as DecodeTask
  // The body's buffer goes back for reuse when the result cannot view it (worker-result.ts).
  return leaving(withWorkerHeap(await processTask(t, host, rum)), t.body)
}
