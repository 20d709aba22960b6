/**
 * The agent's decode pool from the config, over the pipeline watcher and refer table already
 * built (null when the pipeline is off), which it asks for per task.
 */
import type { Config } from '../config/schema.js'
import { DecodePool, workerHeapLimits } from '../ingest/pool.js'
import type { DecodeShares } from '../ingest/decode-shares.js'
import type { BufferPool } from '../shared/buffer-pool.js'
import type { pipelineSettings } from '../pipeline/settings.js'
import type { PipelineWatcher } from '../pipeline/watcher.js'
import type { ReferPuller } from '../pipeline/refer/puller.js'
import { rumWorkerOptions, scriptGeo } from './rum.js'
import type { Events } from '../telemetry/events.js'

export interface PoolParts {
  watcher: PipelineWatcher | null
  refer: ReferPuller | null
  events: Events
  shares: DecodeShares
  bodies: BufferPool
}

export function createDecodePool(
  cfg: Config,
  pl: ReturnType<typeof pipelineSettings>,
  p: PoolParts,
): DecodePool {
  return new DecodePool({
    workers: cfg.decode.workers,
    maxQueue: cfg.decode.max_queue,
    pipeline: pl?.worker,
    rum: cfg.rum.enable ? rumWorkerOptions(cfg) : undefined,
    geo: scriptGeo(() => p.watcher),
    refer: () => p.refer?.current() ?? null,
    onWorkerDied: (err) => p.events.decodeWorkerDied(err),
    resourceLimits: workerHeapLimits(cfg.decode),
    recycleHeapBytes: cfg.decode.recycle_heap,
    onWorkerRecycled: (bytes) => p.events.decodeWorkerRecycled(bytes),
    shares: p.shares,
    bodies: p.bodies,
  })
}
