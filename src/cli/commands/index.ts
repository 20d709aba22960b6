/** Every command of the CLI, in the order help lists them. */
import { identity } from '../../identity.js'
import { FerryError } from '../../errors.js'
import { bashCompletion, zshCompletion } from '../completion.js'
import { helpText } from '../help.js'
import type { CommandSpec } from '../spec.js'
import { BUFFER_COMMANDS } from './buffer.js'
import { MIGRATE_COMMANDS } from './migrate.js'
import { OPERATE_COMMANDS } from './operate.js'
import { PIPELINE_COMMANDS } from './pipeline.js'
import { RUN_COMMANDS } from './run.js'
import { TOOL_COMMANDS } from './tool.js'
import { WORKSPACE_COMMANDS } from './workspace.js'

const SHELLS: Record<string, (c: CommandSpec[]) => string> = {
  bash: bashCompletion,
  zsh: zshCompletion,
}

const GENERAL: CommandSpec[] = [
  {
    name: 'completion',
    usage: 'completion bash|zsh',
    summary: 'print a shell completion script: eval "$(ferry completion bash)"',
    positionals: [1, 1],
    run: (ctx) => {
      const make = SHELLS[ctx.positionals[0]]
      if (!make) throw new FerryError('usage', `completion: expected bash or zsh`)
      process.stdout.write(make(COMMANDS))
    },
  },
  {
    name: 'help',
    usage: 'help [COMMAND]',
    summary: 'show help for the CLI or a command',
    positionals: [0, 3],
    run: (ctx) => console.log(helpText(ctx.positionals.join(' '), COMMANDS)),
  },
  {
    name: 'version',
    usage: 'version',
    summary: 'print the version (also --version)',
    run: () => console.log(identity('').version),
  },
]

export const COMMANDS: CommandSpec[] = [
  ...RUN_COMMANDS,
  ...OPERATE_COMMANDS,
  ...BUFFER_COMMANDS,
  ...PIPELINE_COMMANDS,
  ...WORKSPACE_COMMANDS,
  ...MIGRATE_COMMANDS,
  ...TOOL_COMMANDS,
  ...GENERAL,
]
