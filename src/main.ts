#!/usr/bin/env node
/**
 * The command line: `ferry run | check-config | version [--config PATH]`. The only module that
 * calls process.exit.
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Agent, bufferPath } from './agent.js'
import { formatReport, inspectBuffer, probeBuffer, salvageBuffer } from './buffer/disk/tools.js'
import { loadConfig } from './config/load.js'
import { FerryError } from './errors.js'
import { identity } from './identity.js'
import { createLogger, type Logger } from './telemetry/logger.js'
import { WORKSPACE_USAGE, workspaceCommand } from './workspace/cli.js'
import { PIPELINE_USAGE, pipelineTest } from './pipeline/cli.js'
import { WorkspaceService, workspaceDir } from './workspace/service.js'

const USAGE = `usage: ferry <command> [--config PATH]

commands:
  run                      start the agent (default)
  check-config             validate the config and print every problem
  buffer inspect [--json]  per-category depth, bytes, oldest age and dead letters of the buffer
  buffer verify            verify every buffered record (damaged ones are dropped and counted)
${WORKSPACE_USAGE}
${PIPELINE_USAGE}
  version                  print the version`

function defaultConfigPath(): string {
  // conf.d/ferry.conf beside the package, whether running from src/ or dist/src/.
  const here = path.dirname(fileURLToPath(import.meta.url))
  const root =
    path.basename(path.dirname(here)) === 'dist'
      ? path.resolve(here, '../..')
      : path.resolve(here, '..')
  return path.join(root, 'conf.d', 'ferry.conf')
}

interface Args {
  command: string[]
  config: string
  flags: Record<string, string | true>
}

const VALUE_FLAGS = [
  '--config',
  '--path',
  '--from',
  '--to',
  '--input',
  '--category',
  '--data-type',
  '--timezone',
]

function parseArgs(argv: string[]): Args {
  const command: string[] = []
  const flags: Record<string, string | true> = {}
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (VALUE_FLAGS.includes(a) && argv[i + 1] !== undefined) flags[a.slice(2)] = argv[++i]
    else if (a === '--json') flags.json = true
    else if (!a.startsWith('-')) command.push(a)
    else throw new FerryError('badRequest', `unknown option ${a}\n${USAGE}`)
  }
  const config =
    (flags.config as string | undefined) ?? process.env.FERRY_CONFIG ?? defaultConfigPath()
  return { command: command.length ? command : ['run'], config, flags }
}

async function run(configPath: string): Promise<void> {
  const loaded = loadConfig(configPath)
  const log = createLogger(loaded.config.logging.level)
  if (!loaded.file)
    log.warn(
      { event: 'config_missing', path: configPath },
      'no config file; using defaults and ENV_*',
    )
  const damage = probeBuffer(bufferPath(loaded.config), fileURLToPath(import.meta.url))
  if (damage) log.error({ event: 'buffer_damaged' }, damage)
  const agent = new Agent(loaded, log)
  onSignals(log, () => agent.shutdown())
  await agent.start()
}

function onSignals(log: Logger, shutdown: () => Promise<void>): void {
  const stop = (signal: string) => {
    log.info({ event: 'signal', signal }, 'shutting down')
    shutdown().then(() => process.exit(0))
  }
  process.once('SIGTERM', () => stop('SIGTERM'))
  process.once('SIGINT', () => stop('SIGINT'))
}

async function workspace(args: Args): Promise<void> {
  const { config } = loadConfig(args.config)
  if (args.command.length > 1)
    return workspaceCommand(config, args.command.slice(1), args.flags.json === true)
  const log = createLogger(config.logging.level)
  const service = new WorkspaceService(config.workspace, workspaceDir(config), log)
  onSignals(log, () => service.shutdown())
  await service.start()
}

async function buffer(args: Args): Promise<void> {
  const [, sub] = args.command
  if (sub === 'salvage') {
    const copied = await salvageBuffer(String(args.flags.from), String(args.flags.to))
    return void console.log(`salvaged ${copied} records`)
  }
  const path = (args.flags.path as string | undefined) ?? bufferPath(loadConfig(args.config).config)
  if (sub !== 'inspect' && sub !== 'verify') throw new FerryError('badRequest', USAGE)
  const report = await inspectBuffer(path)
  console.log(args.flags.json ? JSON.stringify(report) : formatReport(report))
}

async function pipeline(args: Args): Promise<void> {
  const [, sub, script] = args.command
  const input = args.flags.input
  if (sub !== 'test' || !script || typeof input !== 'string')
    throw new FerryError('badRequest', `usage:\n${PIPELINE_USAGE}`)
  const f = args.flags
  const r = await pipelineTest({
    script,
    input,
    category: f.category as string | undefined,
    dataType: f['data-type'] as string | undefined,
    timezone: f.timezone as string | undefined,
  })
  console.log(r.text)
  if (!r.ok) process.exitCode = 1
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2))
  const { config } = args
  const command = args.command[0]
  if (command === 'run') return run(config)
  if (command === 'buffer') return buffer(args)
  if (command === 'workspace') return workspace(args)
  if (command === 'pipeline') return pipeline(args)
  if (command === 'check-config') {
    const loaded = loadConfig(config)
    console.log(
      `${loaded.file ?? '(no file, defaults)'}: ok${loaded.fromEnv.length ? ` (overridden by ${loaded.fromEnv.join(', ')})` : ''}`,
    )
    return
  }
  if (command === 'version') return void console.log(identity('').version)
  throw new FerryError('badRequest', `unknown command ${command}\n${USAGE}`)
}

main().catch((e) => {
  console.error(e instanceof FerryError ? e.message : e)
  process.exit(e instanceof FerryError && e.code === 'configInvalid' ? 2 : 1)
})
