/** What the HTTP source needs from the rest of the agent: interfaces, not implementations. */
import type { WriteBuffer } from '../../buffer/buffer.js'
import type { Config } from '../../config/schema.js'
import type { BufferPool } from '../../shared/buffer-pool.js'
import type { AcceptDeps } from '../../ingest/accept.js'
import type { AggOp } from '../../pipeline/agg/ops.js'
import type { IoSettings } from '../../ingest/io.js'
import type { Decoder } from '../../ingest/protocol.js'
import type { TapHub } from '../../ingest/tap.js'
import type { PipelineDeps } from '../../pipeline/debug/types.js'
import type { Identity } from '../../identity.js'
import type { Upstream } from '../../sinks/dataway/upstream.js'
import type { GlobalTags } from '../../tags/global-tags.js'
import type { TagFile } from '../../tags/tag-file.js'
import type { AccessPolicy } from './access/policy.js'
import type { Snapshot } from '../../monitor/snapshot.js'
import type { Health } from '../../monitor/health.js'
import type { Events } from '../../telemetry/events.js'
import type { PipelineEvents } from '../../telemetry/pipeline-events.js'
import type { RumEvents } from '../../telemetry/rum-events.js'
import type { GeoTagger } from '../../rum/geo/tags.js'
import type { SourceMapResolver } from '../../rum/sourcemap/resolver.js'
import type { ReplayQueue } from '../../rum/replay/queue.js'

/** The RUM routes' needs; null when `[rum] enable = false`. */
export interface RumDeps {
  /** `<data_dir>/rum`: source map zips by platform. */
  root: string
  geo: GeoTagger | null
  /** For `/v1/sourcemap/check`, which resolves on the HTTP thread (a person's request). */
  resolver: SourceMapResolver
  replay: ReplayQueue
  events: RumEvents
}

export interface HttpDeps {
  config: Config
  decoder: Decoder
  buffer: WriteBuffer
  tags: GlobalTags
  /** The main config file tag changes are persisted to; null in container mode. */
  tagFile: TagFile | null
  access: AccessPolicy
  /** The sampled figures behind `/v1/monitor` and `/monitor`. */
  monitor?: { snapshot(): Snapshot; health(): Health }
  events: Events
  identity: Identity
  /** The first upstream, which answers queries and object labels; null when there is none. */
  upstream: () => Upstream | null
  /** The pipeline; null when `[pipeline] enable = false`. */
  pipeline: PipelineDeps | null
  pipelineEvents?: PipelineEvents
  /** Takes the scripts' agg_create/agg_metric operations; absent when the pipeline is off. */
  aggregate?: (ops: AggOp[]) => void
  rum?: RumDeps | null
  /** `[io]` filters and correction, and the upstream's clock; absent: none. */
  io?: IoSettings
  /** The embedded workspace's state for `/v1/ping` (`ok`, `failed: ...`); null when none. */
  workspaceState?: (() => string) | null
  /** Watchers of accepted points (`GET /v1/tap`); null when `[tap] max_clients = 0`. */
  tap?: TapHub | null
  /**
   * Reused buffers for write bodies and their payloads (`[http_api] body_pool_bytes`); absent: a
   * fresh one each.
   */
  bodyPool?: BufferPool | null
}

export type { HttpEnv } from '../../http/env.js'

const acceptDepsOf = new WeakMap<HttpDeps, AcceptDeps>()

/**
 * What accepting points needs, out of the HTTP source's dependencies: made once per `HttpDeps`
 * (its members are fixed for the app's life), not once per request.
 */
export function acceptDeps(d: HttpDeps): AcceptDeps {
  let out = acceptDepsOf.get(d)
  if (!out) {
    out = {
      decoder: d.decoder,
      buffer: d.buffer,
      scriptRan: (category, s) => d.pipelineEvents?.ran(category, s),
      aggregate: d.aggregate,
      tap: d.tap,
      io: d.io,
      buffers: d.bodyPool ?? undefined,
    }
    acceptDepsOf.set(d, out)
  }
  return out
}
