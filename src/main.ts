#!/usr/bin/env node
/**
 * The command line (`ferry <command>`; the commands live in src/cli/), and the only module that
 * calls process.exit. A user's mistake ends in one line on stderr and exit status 2 (usage) or
 * 1 (anything else failed); only an unexpected error prints a stack.
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseCommandLine } from './cli/args.js'
import { COMMANDS } from './cli/commands/index.js'
import { describeFailure } from './cli/describe.js'
import { helpText } from './cli/help.js'
import { identity } from './identity.js'
import { releaseThreadHeapFlags } from './shared/heap-flags.js'

/** The package root, whether running from src/ or dist/src/. */
function packageRoot(): string {
  const here = path.dirname(fileURLToPath(import.meta.url))
  return path.basename(path.dirname(here)) === 'dist'
    ? path.resolve(here, '../..')
    : path.resolve(here, '..')
}

async function main(argv: string[]): Promise<number> {
  // Before any worker thread is made: each sizes its own young generation (heap-flags.ts).
  releaseThreadHeapFlags()
  const parsed = parseCommandLine(argv, COMMANDS)
  if (parsed.kind !== 'command') {
    console.log(parsed.kind === 'help' ? helpText(parsed.topic, COMMANDS) : identity('').version)
    return 0
  }
  const flag = parsed.values.config
  const outcome = await parsed.command.run({
    positionals: parsed.positionals,
    values: parsed.values,
    configFlag: typeof flag === 'string' ? flag : (process.env.FERRY_CONFIG ?? null),
    defaultConfig: path.join(packageRoot(), 'conf.d', 'ferry.conf'),
    packageRoot: packageRoot(),
    mainScript: fileURLToPath(import.meta.url),
    exit: (code) => process.exit(code),
  })
  return typeof outcome === 'number' ? outcome : 0
}

main(process.argv.slice(2)).then(
  (status) => {
    // Long-running commands (run, workspace) return once started and exit on a signal.
    if (status !== 0) process.exitCode = status
  },
  (e: unknown) => {
    const failure = describeFailure(e)
    console.error(failure.message)
    process.exit(failure.status)
  },
)
