/**
 * The HTTP routes' dependencies, built from the agent's parts. The running config and the
 * upstream are read through accessors per request, so a reload or the embedded workspace's late
 * upstream is seen without rebuilding the routes.
 */
import type { LoadedConfig } from '../config/load.js'
import type { Identity } from '../identity.js'
import type { DecodePool } from '../ingest/pool.js'
import { inlineFirst } from '../ingest/inline-first.js'
import { fairShare, type DecodeShares } from '../ingest/decode-shares.js'
import { LoopLoad } from '../ingest/loop-load.js'
import type { TapHub } from '../ingest/tap.js'
import type { IoSettings } from '../ingest/io.js'
import { pipelineDeps } from '../ingest/pipeline-deps.js'
import type { Monitor } from '../monitor/sampler.js'
import type { PipelineWatcher } from '../pipeline/watcher.js'
import type { AggOp } from '../pipeline/agg/ops.js'
import type { DiskBuffer } from '../buffer/disk/disk-buffer.js'
import type { BufferPool } from '../shared/buffer-pool.js'
import type { Upstream } from '../sinks/dataway/upstream.js'
import type { GlobalTags } from '../tags/global-tags.js'
import { TagFile } from '../tags/tag-file.js'
import type { AccessPolicy } from '../sources/http/access/policy.js'
import type { HttpDeps, RumDeps } from '../sources/http/deps.js'
import type { Events } from '../telemetry/events.js'
import type { Metrics } from '../telemetry/metrics.js'
import type { PipelineEvents } from '../telemetry/pipeline-events.js'
import { addBufferPoolMetrics, addPoolMetrics, timedDecoder } from '../telemetry/pool-metrics.js'
import type { WorkspaceThread } from '../workspace/thread.js'

/** What the routes need from the agent; `loaded` and `upstream` are read when called. */
export interface RouteParts {
  loaded: () => LoadedConfig
  upstream: () => Upstream | null
  metrics: Metrics
  events: Events
  identity: Identity
  buffer: DiskBuffer
  pool: DecodePool
  shares: DecodeShares
  bodies: BufferPool
  watcher: PipelineWatcher | null
  tags: GlobalTags
  access: AccessPolicy
  pipelineEvents: PipelineEvents | undefined
  aggregate: ((ops: AggOp[]) => void) | undefined
  monitor: Monitor
  rum: RumDeps | null
  workspace: WorkspaceThread | null
  tap: TapHub | null
  io: IoSettings
}

export function agentHttpDeps(a: RouteParts): HttpDeps {
  const loaded = a.loaded()
  const decodeSeconds = addPoolMetrics(a.metrics.registry, a.pool)
  addBufferPoolMetrics(a.metrics.registry, a.bodies)
  const running = () => a.loaded().config
  return {
    // The running config, read per request: after a reload its live keys (the `[rum]`
    // whitelists and client address header among them) hold the new values (reload.ts).
    get config() {
      return running()
    },
    decoder: fairShare(
      timedDecoder(
        inlineFirst(a.pool, a.watcher ? (c, v) => a.watcher!.mayApply(c, v) : null, {
          load: new LoopLoad(),
          shares: a.shares,
        }),
        decodeSeconds,
      ),
      a.shares,
      (client, wait) => a.events.decodeShareExceeded(client, wait),
    ),
    buffer: a.buffer,
    bodyPool: a.bodies,
    tags: a.tags,
    tagFile: loaded.mode === 'host' && loaded.file ? new TagFile(loaded.file) : null,
    access: a.access,
    events: a.events,
    identity: a.identity,
    upstream: a.upstream,
    pipeline: a.watcher
      ? pipelineDeps(a.watcher, a.pool, loaded.config.pipeline.debug_concurrency)
      : null,
    pipelineEvents: a.pipelineEvents,
    aggregate: a.aggregate,
    monitor: a.monitor,
    rum: a.rum,
    workspaceState: a.workspace ? () => a.workspace!.state() : null,
    tap: a.tap,
    io: a.io,
  }
}
