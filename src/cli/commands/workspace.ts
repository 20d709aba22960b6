/** `ferry workspace create | list | key | retention ...`: accounts and retention of the workspace service. */
import { cliConfig } from '../config.js'
import type { CommandSpec, Context } from '../spec.js'

const JSON_OPTION = { json: { type: 'boolean' as const, help: 'print JSON' } }

function admin(verb: string[]): (ctx: Context) => Promise<void> {
  return async (ctx) => {
    // The workspace's store (DuckDB) loads only for these commands.
    const { workspaceCommand } = await import('../../workspace/cli.js')
    const config = cliConfig(ctx).config
    await workspaceCommand(config, [...verb, ...ctx.positionals], ctx.values.json === true)
  }
}

async function migrate(ctx: Context): Promise<number> {
  const { migrateCommand } = await import('../../workspace/migrate/cli.js')
  const { workspaceDir } = await import('../../workspace/service.js')
  const config = cliConfig(ctx).config
  const v = ctx.values
  return migrateCommand(config, {
    to: typeof v.to === 'string' ? v.to : '',
    from: typeof v.from === 'string' ? v.from : workspaceDir(config),
    batchRows: typeof v.batch === 'string' ? Number(v.batch) : 50_000,
    json: v.json === true,
  })
}

export const WORKSPACE_COMMANDS: CommandSpec[] = [
  {
    name: 'workspace create',
    usage: 'workspace create NAME',
    summary: 'create a workspace; prints its data token and an API key',
    positionals: [1, 1],
    options: JSON_OPTION,
    run: admin(['create']),
  },
  {
    name: 'workspace list',
    usage: 'workspace list',
    summary: 'list workspaces and their data tokens',
    options: JSON_OPTION,
    run: admin(['list']),
  },
  {
    name: 'workspace key create',
    usage: 'workspace key create WS [NAME]',
    summary: 'create an API key for workspace WS (shown once)',
    positionals: [1, 2],
    options: JSON_OPTION,
    run: admin(['key', 'create']),
  },
  {
    name: 'workspace key list',
    usage: 'workspace key list WS',
    summary: 'list the API keys of workspace WS',
    positionals: [1, 1],
    options: JSON_OPTION,
    run: admin(['key', 'list']),
  },
  {
    name: 'workspace key revoke',
    usage: 'workspace key revoke KEY_ID',
    summary: 'revoke an API key',
    positionals: [1, 1],
    options: JSON_OPTION,
    run: admin(['key', 'revoke']),
  },
  {
    name: 'workspace retention set',
    usage: 'workspace retention set WS CATEGORY DURATION|forever',
    summary: "keep CATEGORY's rows in workspace WS for DURATION (e.g. 14d, 12h) or forever",
    positionals: [3, 3],
    options: JSON_OPTION,
    run: admin(['retention', 'set']),
  },
  {
    name: 'workspace retention clear',
    usage: 'workspace retention clear WS CATEGORY',
    summary: 'drop the retention of its own of workspace WS for CATEGORY (the global one applies)',
    positionals: [2, 2],
    options: JSON_OPTION,
    run: admin(['retention', 'clear']),
  },
  {
    name: 'workspace retention list',
    usage: 'workspace retention list [WS]',
    summary: 'list the retention workspaces (or WS) have of their own, per category',
    positionals: [0, 1],
    options: JSON_OPTION,
    run: admin(['retention', 'list']),
  },
  {
    name: 'workspace verify',
    usage: 'workspace verify',
    summary: 'read every table of the workspace database; exit 1 with a report if any fails',
    options: JSON_OPTION,
    run: admin(['verify']),
  },
  {
    name: 'workspace migrate',
    usage: 'workspace migrate --to clickhouse [--from DIR] [--batch ROWS]',
    summary:
      'copy a stopped DuckDB workspace (metadata and points) into [workspace.clickhouse]; re-runs store nothing twice',
    options: {
      ...JSON_OPTION,
      to: { type: 'string', value: 'ENGINE', help: 'the engine to copy into: clickhouse' },
      from: {
        type: 'string',
        value: 'DIR',
        help: 'the DuckDB workspace directory (default: the configured one)',
      },
      batch: { type: 'string', value: 'ROWS', help: 'rows per insert (default 50000)' },
    },
    run: migrate,
  },
  {
    name: 'workspace repair',
    usage: 'workspace repair',
    summary: 'copy what a damaged workspace database still holds to a fresh one; report counts',
    options: JSON_OPTION,
    run: admin(['repair']),
  },
]
