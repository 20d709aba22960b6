/**
 * The agent's uplink parts: the upstreams it uploads to, the clock taken from the first one,
 * the time and filter settings that clock feeds, RUM (whose replays and CDN lookups go
 * upstream too), and the embedded workspace when no upstream is configured.
 *
 * Invariant: `upstreams.list` is the one list every part reads through `first()`; the embedded
 * workspace's upstream is put in it when the workspace serves, possibly after `start`.
 */
import type { LoadedConfig } from '../config/load.js'
import type { Identity } from '../identity.js'
import type { IoSettings } from '../ingest/io.js'
import type { ReplayForwarder } from '../rum/replay/forwarder.js'
import type { NtpClock } from '../sinks/dataway/ntp.js'
import type { Upstream } from '../sinks/dataway/upstream.js'
import type { RumDeps } from '../sources/http/deps.js'
import { RumEvents } from '../telemetry/rum-events.js'
import { WorkspaceThread } from '../workspace/thread.js'
import { createIo, createNtp, createUpstreams } from './build.js'
import type { Telemetry } from './core.js'
import { createRum } from './rum.js'

export class Upstreams {
  constructor(public list: Upstream[]) {}

  readonly first = (): Upstream | null => this.list[0] ?? null
}

export interface Uplink {
  readonly upstreams: Upstreams
  readonly ntp: NtpClock | null
  readonly io: IoSettings
  readonly rum: { deps: RumDeps; forwarder: ReplayForwarder } | null
  /** The in-process workspace service, when it is the upstream (no `[dataway] urls`). */
  readonly workspace: WorkspaceThread | null
}

export function buildUplink(loaded: LoadedConfig, id: Identity, t: Telemetry): Uplink {
  const cfg = loaded.config
  const upstreams = new Upstreams(createUpstreams(cfg))
  const ntp = createNtp(cfg, upstreams.first, id, t.uplink)
  const io = createIo(cfg, ntp, t.uplink)
  const rum = cfg.rum.enable
    ? createRum(cfg, id, upstreams.first, new RumEvents(t.log, t.metrics.registry))
    : null
  const workspace =
    upstreams.list.length === 0 && cfg.workspace.embedded ? new WorkspaceThread(cfg) : null
  return { upstreams, ntp, io, rum, workspace }
}
