/**
 * The embedded workspace as the agent's upstream. A workspace that fails leaves the agent with
 * no upstream: points wait in the buffer. It is tried again in the background; once it starts,
 * it becomes the upstream of the running uploader and the buffered points flow to it. It takes
 * bodies uncompressed (compressing for a hop inside the process only costs CPU twice) and of
 * its own size, `[workspace] embedded_body_size`: larger bodies make larger commits.
 */
import type { Registry } from 'prom-client'
import { parseUpstream, type Upstream } from '../sinks/dataway/upstream.js'
import { EmbeddedWorkspaceEvents } from '../telemetry/embedded-workspace-events.js'
import type { Logger } from '../telemetry/logger.js'
import type { ThreadReady, WorkspaceThread } from '../workspace/thread.js'

export function embeddedUpstream(ready: ThreadReady, bodySize?: number): Upstream {
  const up = parseUpstream(`${ready.url}?token=${ready.token}`)
  return { ...up, compression: 'none', ...(bodySize ? { maxRawBodySize: bodySize } : {}) }
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
  bodySize?: number,
): Promise<void> {
  const events = new EmbeddedWorkspaceEvents(log, registry)
  ws.onDamage({ damaged: () => events.damaged() })
  await begin(ws)
  if (!ws.failure) {
    events.started()
    return attach(embeddedUpstream(ws.ready!, bodySize))
  }
  events.failed(ws.failure)
  ws.retryUntilStarted({
    recovered: (ready) => {
      attach(embeddedUpstream(ready, bodySize))
      events.recovered()
    },
    retryFailed: (err, nextMs) => events.retryFailed(err, nextMs),
  })
}
