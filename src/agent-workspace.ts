/**
 * The embedded workspace as the agent's upstream. A workspace that fails leaves the agent with
 * no upstream: points wait in the buffer. It is tried again in the background; once it starts,
 * it becomes the upstream of the running uploader and the buffered points flow to it. It takes
 * bodies uncompressed: compressing for a hop inside the process only costs CPU twice.
 */
import type { Registry } from 'prom-client'
import { parseUpstream, type Upstream } from './sinks/dataway/upstream.js'
import { EmbeddedWorkspaceEvents } from './telemetry/embedded-workspace-events.js'
import type { Logger } from './telemetry/logger.js'
import type { ThreadReady, WorkspaceThread } from './workspace/thread.js'

export function embeddedUpstream(ready: ThreadReady): Upstream {
  return { ...parseUpstream(`${ready.url}?token=${ready.token}`), compression: 'none' }
}

/**
 * Starts `ws` through `begin` (so the agent shuts it down), then calls `attach` with its
 * upstream now, or after the start attempt that succeeds.
 */
export async function startEmbedded(
  ws: WorkspaceThread,
  log: Logger,
  registry: Registry,
  begin: (ws: WorkspaceThread) => Promise<void>,
  attach: (up: Upstream) => void,
): Promise<void> {
  const events = new EmbeddedWorkspaceEvents(log, registry)
  ws.onDamage({ damaged: () => events.damaged() })
  await begin(ws)
  if (!ws.failure) {
    events.started()
    return attach(embeddedUpstream(ws.ready!))
  }
  events.failed(ws.failure)
  ws.retryUntilStarted({
    recovered: (ready) => {
      attach(embeddedUpstream(ready))
      events.recovered()
    },
    retryFailed: (err, nextMs) => events.retryFailed(err, nextMs),
  })
}
