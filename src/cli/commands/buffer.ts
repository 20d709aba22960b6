/** `ferry buffer inspect | verify [--repair]`, and the start-up probe's internal `salvage`. */
import type { BufferReport } from '../../buffer/disk/inspect.js'
import { FerryError } from '../../errors.js'
import { cliConfig } from '../config.js'
import type { CommandSpec, Context, OptionSpec } from '../spec.js'

const OPTIONS: Record<string, OptionSpec> = {
  path: {
    type: 'string',
    value: 'DIR',
    help: 'the buffer directory (default: [dataway.wal] path, else <data_dir>/buffer)',
  },
  json: { type: 'boolean', help: 'print the report as JSON' },
}

/** LMDB loads only when a buffer command runs. */
const tools = () => import('../../buffer/disk/inspect.js')

async function pathOf(ctx: Context): Promise<string> {
  const given = ctx.values.path
  if (typeof given === 'string') return given
  const { bufferPath } = await import('../../agent/build.js')
  return bufferPath(cliConfig(ctx).config)
}

async function print(ctx: Context, r: BufferReport): Promise<void> {
  console.log(ctx.values.json ? JSON.stringify(r) : (await tools()).formatReport(r))
}

async function inspect(ctx: Context): Promise<void> {
  await print(ctx, (await tools()).inspectBuffer(await pathOf(ctx)))
}

async function verify(ctx: Context): Promise<number> {
  const { inspectBuffer, repairBuffer } = await tools()
  const path = await pathOf(ctx)
  const r = ctx.values.repair ? await repairBuffer(path) : inspectBuffer(path)
  await print(ctx, r)
  return (r.damaged || r.mismatch) && !ctx.values.repair ? 1 : 0
}

function required(ctx: Context, name: string): string {
  const v = ctx.values[name]
  if (typeof v !== 'string')
    throw new FerryError('usage', `missing --${name} (see ferry buffer salvage --help)`)
  return v
}

export const BUFFER_COMMANDS: CommandSpec[] = [
  {
    name: 'buffer inspect',
    usage: 'buffer inspect [--path DIR] [--json]',
    summary: 'what the buffer holds per category, damaged records, dead letters (read-only)',
    options: OPTIONS,
    run: inspect,
  },
  {
    name: 'buffer verify',
    usage: 'buffer verify [--repair] [--path DIR] [--json]',
    summary:
      'verify every record and the ledger; exit 1 on damage (--repair drops damaged records)',
    options: { ...OPTIONS, repair: { type: 'boolean', help: 'drop damaged records' } },
    run: verify,
  },
  {
    name: 'buffer salvage',
    usage: 'buffer salvage --from DIR --to DIR [--json]',
    summary: 'rebuild a damaged buffer from its raw bytes into a new one',
    hidden: true,
    options: {
      from: { type: 'string', value: 'DIR', help: 'the damaged buffer' },
      to: { type: 'string', value: 'DIR', help: 'the new buffer' },
      json: { type: 'boolean', help: 'print the report as JSON' },
    },
    run: async (ctx) => {
      const { salvageBuffer } = await import('../../buffer/disk/salvage.js')
      const r = await salvageBuffer(required(ctx, 'from'), required(ctx, 'to'))
      const n = Object.values(r.recovered).reduce((k, c) => k + c.records, 0)
      console.log(ctx.values.json ? JSON.stringify(r) : `salvaged ${n} records`)
    },
  },
]
