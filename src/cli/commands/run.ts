/**
 * `ferry run` and `ferry workspace`: the long-running commands. SIGTERM/SIGINT shut down in
 * order, SIGHUP reloads the config (live keys apply at once; see reload.ts) and rescans the
 * pipeline scripts, without stopping writes.
 */
import type { Agent } from '../../agent/agent.js'
import { isCommitFailure, settleCommitFailure } from '../../buffer/disk/commit-echo.js'
import { loadConfig } from '../../config/load.js'
import { createLogger, type Logger } from '../../telemetry/logger.js'
import { cliConfig, configPath } from '../config.js'
import type { CommandSpec, Context } from '../spec.js'

function onSignals(log: Logger, shutdown: () => Promise<void>, exit: Context['exit']): void {
  const stop = (signal: string) => {
    log.info({ event: 'signal', signal }, 'shutting down')
    shutdown().then(() => exit(0))
  }
  process.once('SIGTERM', () => stop('SIGTERM'))
  process.once('SIGINT', () => stop('SIGINT'))
}

/** A config that fails to load leaves the running one in place. */
function reload(agent: Agent, path: string, log: Logger): void {
  log.info({ event: 'signal', signal: 'SIGHUP' }, 'reloading the configuration')
  try {
    agent.reload(loadConfig(path))
  } catch (e) {
    log.error({ event: 'config_reload_failed' }, `kept the running config: ${(e as Error).message}`)
  }
}

// The agent and the workspace load on demand: `ferry health` (run by probes every few
// seconds) and the other small commands then start without DuckDB, LMDB or QuickJS.
async function runAgent(ctx: Context): Promise<void> {
  const { Agent, bufferPath } = await import('../../agent/agent.js')
  const { probeBuffer } = await import('../../buffer/disk/probe.js')
  const loaded = cliConfig(ctx)
  const lc = loaded.config.logging
  const log = createLogger(lc.level, {
    limit: { windowMs: lc.rate_limit_window, burst: lc.rate_limit_burst },
  })
  if (!loaded.file)
    log.warn(
      { event: 'config_missing', path: loaded.path },
      'no config file read; using defaults and ENV_* (container mode)',
    )
  const damage = probeBuffer(bufferPath(loaded.config), ctx.mainScript)
  const agent = new Agent(loaded, log)
  if (damage) agent.bufferDamaged(damage)
  // The last line of defence: a rejection nobody handled is logged and counted, never fatal.
  // lmdb's second rejection of a failed commit is not one: the write that met the failure was
  // answered 503 and logged it (buffer/disk/commit-echo.ts).
  process.on('unhandledRejection', (reason) => {
    if (isCommitFailure(reason)) return settleCommitFailure(reason)
    agent.events.internalError('unhandled', reason)
  })
  onSignals(log, () => agent.shutdown(), ctx.exit)
  process.on('SIGHUP', () => reload(agent, configPath(ctx), log))
  try {
    await agent.start()
  } catch (e) {
    // A start that fails half-way (a port in use) must not leave threads holding the process.
    await agent.shutdown().catch(() => undefined)
    throw e
  }
}

async function runWorkspace(ctx: Context): Promise<void> {
  const { WorkspaceService, workspaceDir } = await import('../../workspace/service.js')
  const { config } = cliConfig(ctx)
  const log = createLogger(config.logging.level)
  const service = new WorkspaceService(
    config.workspace,
    workspaceDir(config),
    log,
    {},
    config['workspace.clickhouse'],
  )
  onSignals(log, () => service.shutdown(), ctx.exit)
  await service.start()
}

export const RUN_COMMANDS: CommandSpec[] = [
  {
    name: 'run',
    usage: 'run',
    summary: 'start the agent (default); SIGHUP reloads the config',
    run: runAgent,
  },
  {
    name: 'workspace',
    usage: 'workspace',
    summary: 'run the workspace service alone',
    run: runWorkspace,
  },
]
