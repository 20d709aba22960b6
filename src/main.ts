#!/usr/bin/env node
/**
 * The command line (`ferry <command>`), and the only module that calls process.exit. `run`
 * starts the agent: SIGTERM/SIGINT shut it down in order, SIGHUP reloads the config (live keys
 * apply at once; see reload.ts) and rescans the pipeline scripts, without stopping writes.
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Agent, bufferPath } from './agent.js'
import { probeBuffer } from './buffer/disk/tools.js'
import { parseArgs, type Args } from './cli/args.js'
import { buffer, checkConfig, monitor, pipeline, service } from './cli/commands.js'
import { HEALTH_USAGE, health } from './cli/health.js'
import { loadConfig } from './config/load.js'
import { FerryError } from './errors.js'
import { identity } from './identity.js'
import { MONITOR_USAGE } from './monitor/cli.js'
import { PIPELINE_USAGE } from './pipeline/cli.js'
import { SERVICE_USAGE } from './service/service.js'
import { createLogger, type Logger } from './telemetry/logger.js'
import { WORKSPACE_USAGE } from './workspace/usage.js'

const USAGE = `usage: ferry <command> [--config PATH]

commands:
  run                      start the agent (default); SIGHUP reloads the config
  check-config             validate the config and print every problem
${HEALTH_USAGE}
${MONITOR_USAGE}
${SERVICE_USAGE}
  buffer inspect [--json]  per-category depth, bytes, oldest age and dead letters of the buffer
  buffer verify            verify every buffered record (damaged ones are dropped and counted)
${WORKSPACE_USAGE}
${PIPELINE_USAGE}
  version                  print the version

The config path defaults to FERRY_CONFIG, else conf.d/ferry.conf of the package. With
FERRY_CONTAINER=1 no file is read: defaults and ENV_* only (container mode).`

/** The package root, whether running from src/ or dist/src/. */
function packageRoot(): string {
  const here = path.dirname(fileURLToPath(import.meta.url))
  return path.basename(path.dirname(here)) === 'dist'
    ? path.resolve(here, '../..')
    : path.resolve(here, '..')
}

async function run(configPath: string): Promise<void> {
  const loaded = loadConfig(configPath)
  const log = createLogger(loaded.config.logging.level)
  if (!loaded.file)
    log.warn(
      { event: 'config_missing', path: configPath },
      'no config file read; using defaults and ENV_* (container mode)',
    )
  const damage = probeBuffer(bufferPath(loaded.config), fileURLToPath(import.meta.url))
  if (damage) log.error({ event: 'buffer_damaged' }, damage.note)
  const agent = new Agent(loaded, log)
  if (damage?.report) agent.salvaged(damage.report)
  // The last line of defence: a rejection nobody handled (lmdb leaves one behind for each failed
  // commit, after the write itself was answered 503) is logged and counted, never fatal.
  process.on('unhandledRejection', (reason) => agent.events.internalError('unhandled', reason))
  onSignals(log, () => agent.shutdown())
  process.on('SIGHUP', () => reload(agent, configPath, log))
  await agent.start()
}

/** A config that fails to load leaves the running one in place. */
function reload(agent: Agent, configPath: string, log: Logger): void {
  log.info({ event: 'signal', signal: 'SIGHUP' }, 'reloading the configuration')
  try {
    agent.reload(loadConfig(configPath))
  } catch (e) {
    log.error({ event: 'config_reload_failed' }, `kept the running config: ${(e as Error).message}`)
  }
}

function onSignals(log: Logger, shutdown: () => Promise<void>): void {
  const stop = (signal: string) => {
    log.info({ event: 'signal', signal }, 'shutting down')
    shutdown().then(() => process.exit(0))
  }
  process.once('SIGTERM', () => stop('SIGTERM'))
  process.once('SIGINT', () => stop('SIGINT'))
}

/** Loaded on use only: the workspace needs DuckDB, which the agent image leaves out. */
async function workspace(args: Args): Promise<void> {
  const { config } = loadConfig(args.config)
  const { workspaceCommand } = await import('./workspace/cli.js')
  const { WorkspaceService, workspaceDir } = await import('./workspace/service.js')
  if (args.command.length > 1)
    return workspaceCommand(config, args.command.slice(1), args.flags.json === true)
  const log = createLogger(config.logging.level)
  const service = new WorkspaceService(config.workspace, workspaceDir(config), log)
  onSignals(log, () => service.shutdown())
  await service.start()
}

async function main(): Promise<void> {
  const args = parseArgs(
    process.argv.slice(2),
    path.join(packageRoot(), 'conf.d', 'ferry.conf'),
    USAGE,
  )
  const command = args.command[0]
  if (command === 'run') return run(args.config)
  if (command === 'buffer') return buffer(args)
  if (command === 'workspace') return workspace(args)
  if (command === 'pipeline') return pipeline(args)
  if (command === 'monitor') return monitor(args)
  if (command === 'service') return service(args, packageRoot())
  if (command === 'check-config') return checkConfig(args)
  if (command === 'health') return health(args)
  if (command === 'version') return void console.log(identity('').version)
  if (command === 'help') return void console.log(USAGE)
  throw new FerryError('badRequest', `unknown command ${command}\n${USAGE}`)
}

main().catch((e) => {
  console.error(e instanceof FerryError ? e.message : e)
  process.exit(e instanceof FerryError && e.code === 'configInvalid' ? 2 : 1)
})
