#!/usr/bin/env node
/**
 * The command line: `ferry run | check-config | version [--config PATH]`. The only module that
 * calls process.exit.
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Agent } from './agent.js'
import { loadConfig } from './config/load.js'
import { FerryError } from './errors.js'
import { identity } from './identity.js'
import { createLogger } from './telemetry/logger.js'

const USAGE = `usage: ferry <command> [--config PATH]

commands:
  run           start the agent (default)
  check-config  validate the config and print every problem
  version       print the version`

function defaultConfigPath(): string {
  // conf.d/ferry.conf beside the package, whether running from src/ or dist/src/.
  const here = path.dirname(fileURLToPath(import.meta.url))
  const root =
    path.basename(path.dirname(here)) === 'dist'
      ? path.resolve(here, '../..')
      : path.resolve(here, '..')
  return path.join(root, 'conf.d', 'ferry.conf')
}

function parseArgs(argv: string[]): { command: string; config: string } {
  let command = 'run'
  let config = process.env.FERRY_CONFIG ?? defaultConfigPath()
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--config' && argv[i + 1]) config = argv[++i]
    else if (argv[i].startsWith('--config=')) config = argv[i].slice('--config='.length)
    else if (!argv[i].startsWith('-')) command = argv[i]
    else throw new FerryError('badRequest', `unknown option ${argv[i]}\n${USAGE}`)
  }
  return { command, config }
}

async function run(configPath: string): Promise<void> {
  const loaded = loadConfig(configPath)
  const log = createLogger(loaded.config.logging.level)
  if (!loaded.file)
    log.warn(
      { event: 'config_missing', path: configPath },
      'no config file; using defaults and ENV_*',
    )
  const agent = new Agent(loaded, log)
  const stop = (signal: string) => {
    log.info({ event: 'signal', signal }, 'shutting down')
    agent.shutdown().then(() => process.exit(0))
  }
  process.once('SIGTERM', () => stop('SIGTERM'))
  process.once('SIGINT', () => stop('SIGINT'))
  await agent.start()
}

async function main(): Promise<void> {
  const { command, config } = parseArgs(process.argv.slice(2))
  if (command === 'run') return run(config)
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
