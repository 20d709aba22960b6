/** What the HTTP source needs from the rest of the agent: interfaces, not implementations. */
import type { IncomingMessage } from 'node:http'
import type { WriteBuffer } from '../../buffer/buffer.js'
import type { Config } from '../../config/schema.js'
import type { Decoder } from '../../decode/protocol.js'
import type { DebugResult, DebugTask } from '../../pipeline/debug/types.js'
import type { Identity } from '../../identity.js'
import type { Upstream } from '../../sinks/dataway/upstream.js'
import type { GlobalTags } from '../../tags/global-tags.js'
import type { TagFile } from '../../tags/tag-file.js'
import type { AccessPolicy } from './access/policy.js'
import type { Snapshot } from '../../monitor/snapshot.js'
import type { Events } from '../../telemetry/events.js'
import type { PipelineEvents } from '../../telemetry/pipeline-events.js'

export interface HttpDeps {
  config: Config
  decoder: Decoder
  buffer: WriteBuffer
  tags: GlobalTags
  /** The main config file tag changes are persisted to; null in container mode. */
  tagFile: TagFile | null
  access: AccessPolicy
  /** The sampled figures behind `/v1/monitor` and `/monitor`. */
  monitor?: { snapshot(): Snapshot }
  events: Events
  identity: Identity
  /** The first upstream, which answers queries and object labels; null when there is none. */
  upstream: () => Upstream | null
  /** The pipeline; null when `[pipeline] enable = false`. */
  pipeline: PipelineDeps | null
  pipelineEvents?: PipelineEvents
}

export interface PipelineDeps {
  /** Version of the script folder the decode workers should follow. */
  version(): number
  /** Runs a `/v1/pipeline/debug` request in a decode worker. */
  debug(task: DebugTask): Promise<DebugResult>
}

/** Hono environment: @hono/node-server passes the Node request as `incoming`. */
export interface HttpEnv {
  Bindings: { incoming?: IncomingMessage }
  /** `signal` aborts when the request timed out (set by the timeout middleware). */
  Variables: { signal: AbortSignal }
}
