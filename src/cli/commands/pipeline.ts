/** `ferry pipeline test SCRIPT --input FILE`. */
import { FerryError } from '../../errors.js'
import { mustRead } from '../config.js'
import type { CommandSpec, Context } from '../spec.js'

const str = (v: string | boolean | undefined) => (typeof v === 'string' ? v : undefined)

async function test(ctx: Context): Promise<number> {
  const [script] = ctx.positionals
  const input = str(ctx.values.input)
  if (!input) throw new FerryError('usage', 'missing --input FILE (see ferry pipeline test --help)')
  mustRead(script)
  mustRead(input)
  // The pipeline engine (QuickJS) loads only for this command.
  const { pipelineTest } = await import('../../pipeline/cli.js')
  const r = await pipelineTest({
    script,
    input,
    category: str(ctx.values.category),
    dataType: str(ctx.values['data-type']),
    timezone: str(ctx.values.timezone),
    multiline: str(ctx.values.multiline),
  })
  console.log(r.text)
  return r.ok ? 0 : 1
}

export const PIPELINE_COMMANDS: CommandSpec[] = [
  {
    name: 'pipeline test',
    usage: 'pipeline test SCRIPT --input FILE [options]',
    summary: 'run a script (.p or .js) on sample data and print the resulting points',
    positionals: [1, 1],
    options: {
      input: { type: 'string', value: 'FILE', help: 'the sample data (required)' },
      category: { type: 'string', value: 'C', help: 'the category (default: logging)' },
      'data-type': { type: 'string', value: 'T', help: 'content type of the input' },
      timezone: { type: 'string', value: 'TZ', help: 'time zone for times without one' },
      multiline: {
        type: 'string',
        value: 'PATTERN',
        help: 'a line matching this starts a record (default ^\\S)',
      },
    },
    run: test,
  },
]
