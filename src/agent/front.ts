/**
 * The agent's front parts, built on its core and uplink: global tags, the tap, the access
 * policy, the scripts' aggregation buckets, the inputs, the monitor, and the servers (HTTP and
 * OTLP/gRPC) with the routes' dependencies.
 *
 * Invariant: the routes read the running config through `running`, so a reload's live keys
 * reach them without rebuilding anything.
 */
import type { LoadedConfig } from '../config/load.js'
import { HttpServer } from '../http/server.js'
import type { Identity } from '../identity.js'
import type { TapHub } from '../ingest/tap.js'
import { createAggBuckets } from '../inputs/agg-build.js'
import { createInputs } from '../inputs/build.js'
import type { Inputs } from '../inputs/inputs.js'
import { Monitor } from '../monitor/sampler.js'
import type { AggBuckets } from '../pipeline/agg/buckets.js'
import type { AggOp } from '../pipeline/agg/ops.js'
import { AccessPolicy } from '../sources/http/access/policy.js'
import { createApp } from '../sources/http/app.js'
import type { OtlpGrpcServer } from '../sources/otlp/grpc.js'
import type { GlobalTags } from '../tags/global-tags.js'
import { ShedEvents } from '../telemetry/shed-events.js'
import { TapEvents } from '../telemetry/tap-events.js'
import { createOtlpGrpc, createTags, createTap, listenOptions } from './build.js'
import type { Core, Telemetry } from './core.js'
import { agentHttpDeps } from './http.js'
import type { Uplink } from './uplink.js'

export interface Front {
  readonly tags: GlobalTags
  readonly tap: TapHub | null
  readonly access: AccessPolicy
  /** The scripts' aggregation buckets (agg_create); null when the pipeline is off. */
  readonly agg: AggBuckets | null
  readonly inputs: Inputs
  readonly monitor: Monitor
  readonly http: HttpServer
  readonly otlpGrpc: OtlpGrpcServer | null
}

/** What the front is built on. */
export interface Below {
  readonly running: () => LoadedConfig
  readonly identity: Identity
  readonly t: Telemetry
  readonly core: Core
  readonly uplink: Uplink
}

export function buildFront(b: Below): Front {
  const loaded = b.running()
  const { t, core, uplink } = b
  const cfg = loaded.config
  const tags = createTags(cfg, b.identity.host)
  const tap = createTap(cfg, new TapEvents(t.log, t.metrics.registry))
  const access = new AccessPolicy(cfg.http_api, new ShedEvents(t.log, t.metrics.registry))
  const io = uplink.io
  const write = { decoder: core.pool, buffer: core.buffer, tags, events: t.events, tap, io }
  const agg = core.pl ? createAggBuckets(loaded, core.pl.agg, write) : null
  const aggregate = agg ? (ops: AggOp[]) => agg.apply(ops) : undefined
  const watcher = core.watcher
  const inputs = createInputs(loaded, b.identity, {
    ...write,
    pipelineVersion: watcher ? () => watcher.version() : null,
    aggregate,
  })
  const monitor = new Monitor(t.metrics.registry, b.identity, t.events.recent, cfg.health)
  const inner = { tags, tap, access, agg, inputs, monitor }
  return { ...inner, ...servers(b, inner, aggregate) }
}

/** The HTTP and OTLP/gRPC servers over the routes' dependencies. */
function servers(
  b: Below,
  f: Omit<Front, 'http' | 'otlpGrpc'>,
  aggregate: ((ops: AggOp[]) => void) | undefined,
): Pick<Front, 'http' | 'otlpGrpc'> {
  const { t, uplink } = b
  const loaded = b.running()
  const deps = agentHttpDeps({
    ...b.core,
    ...t,
    ...f,
    loaded: b.running,
    upstream: uplink.upstreams.first,
    identity: b.identity,
    aggregate,
    rum: uplink.rum?.deps ?? null,
    workspace: uplink.workspace,
    io: uplink.io,
  })
  const http = new HttpServer(createApp(deps, t.metrics.registry), {
    ...listenOptions(loaded.config),
    gate: f.access.gate(),
  })
  return { http, otlpGrpc: createOtlpGrpc(loaded, deps, t.log, t.metrics.registry) }
}
