/** `ferry migrate DATAKIT_CONF`: writes Ferry's config from a reference agent's. */
import type { CommandSpec, Context } from '../spec.js'
import { mustRead } from '../config.js'

const str = (v: string | boolean | undefined) => (typeof v === 'string' ? v : undefined)

async function migrate(ctx: Context): Promise<number> {
  const [mainFile] = ctx.positionals
  mustRead(mainFile, 'datakit.conf')
  // The inputs' schemas (and the modules behind them) load only for this command.
  const { INPUT_KINDS } = await import('../../inputs/kinds.js')
  const { migrateCommand } = await import('../../migrate/cli.js')
  return migrateCommand({
    mainFile,
    inputsDir: str(ctx.values['inputs-dir']),
    outDir: str(ctx.values.out) ?? 'ferry-migrated',
    force: ctx.values.force === true,
    env: process.env,
    inputs: new Map([...INPUT_KINDS].map(([name, kind]) => [name, kind.schema])),
  })
}

export const MIGRATE_COMMANDS: CommandSpec[] = [
  {
    name: 'migrate',
    usage: 'migrate DATAKIT_CONF [--inputs-dir DIR] [--out DIR] [--force]',
    summary:
      "write Ferry's config from DataKit's datakit.conf and input files; exit 3: keys left out",
    positionals: [1, 1],
    options: {
      'inputs-dir': {
        type: 'string',
        value: 'DIR',
        help: 'where the input files are (default: the folder of DATAKIT_CONF)',
      },
      out: {
        type: 'string',
        value: 'DIR',
        help: 'where to write ferry.conf and the input files (default: ferry-migrated)',
      },
      force: { type: 'boolean', help: 'replace files that exist already' },
    },
    run: migrate,
  },
]
