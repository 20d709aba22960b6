/**
 * Worker thread entry of the embedded workspace service (see src/workspace/thread.ts).
 * Messages: in `{type: 'stop'}`; out `ready` (address and default token), `error`, `stopped`,
 * and `damaged` (DuckDB's message) when a query or write fails on a damaged database file:
 * the first time, and again only when the message changes, so a flood of failing calls
 * crosses the thread boundary once.
 */
import { parentPort, workerData } from 'node:worker_threads'
import type { Config } from '../src/config/schema.js'
import { FerryError } from '../src/errors.js'
import { createLogger } from '../src/telemetry/logger.js'
import { WorkspaceService, workspaceDir } from '../src/workspace/service.js'

const config = (workerData as { config: Config }).config
const log = createLogger(config.logging.level)
const port = parentPort!
let lastDamage = ''
const service = new WorkspaceService(
  config.workspace,
  workspaceDir(config),
  log,
  {
    damaged(message) {
      if (message === lastDamage) return
      lastDamage = message
      port.postMessage({ type: 'damaged', message })
    },
  },
  config['workspace.clickhouse'],
)

async function main(): Promise<void> {
  try {
    await service.start()
    const ws = await service.ensureDefaultWorkspace(config.workspace.default_workspace)
    const addr = service.address()
    const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address
    port.postMessage({ type: 'ready', url: `http://${host}:${addr.port}`, token: ws.token })
  } catch (e) {
    const err =
      e instanceof FerryError
        ? e
        : new FerryError('internalError', String((e as Error)?.message ?? e))
    await service.shutdown().catch(() => undefined)
    port.postMessage({ type: 'error', code: err.code, message: err.message })
    port.close()
  }
}

port.on('message', (m: { type: string }) => {
  if (m.type !== 'stop') return
  void service.shutdown().finally(() => port.close())
})

void main()
