/** Commands about a running or installed agent: check-config, health, monitor, service. */
import { parseDuration } from '../../config/units.js'
import { FerryError } from '../../errors.js'
import { agentUrl, monitorCommand } from '../../monitor/cli.js'
import { control, install, uninstall, type ServiceOptions } from '../../service/service.js'
import { cliConfig } from '../config.js'
import { degradedReasons, ping } from '../health.js'
import { tapCommand } from '../tap.js'
import type { CommandSpec, Context } from '../spec.js'

function durationOf(ctx: Context, name: string, fallback: number): number {
  const v = ctx.values[name]
  if (typeof v !== 'string') return fallback
  const parsed = parseDuration(v)
  if (!parsed) throw new FerryError('usage', `--${name}: expected a duration like "2s"`)
  return parsed[0]
}

function urlOf(ctx: Context): string {
  if (typeof ctx.values.url === 'string') return ctx.values.url
  const { config } = cliConfig(ctx)
  return agentUrl(config.http_api.listen, Boolean(config['http_api.tls'].cert))
}

function tapOptions(ctx: Context) {
  const str = (k: string) => (typeof ctx.values[k] === 'string' ? ctx.values[k] : undefined)
  const count = Number(str('count') ?? '0')
  if (!Number.isSafeInteger(count) || count < 0)
    throw new FerryError('usage', '--count: expected a whole number')
  return {
    url: urlOf(ctx),
    category: str('category'),
    filter: str('filter'),
    format: str('format'),
    sample: str('sample'),
    count,
  }
}

function checkConfig(ctx: Context): void {
  const loaded = cliConfig(ctx)
  const what = loaded.file ?? '(no file: defaults and ENV_*, container mode)'
  const env = loaded.fromEnv.length ? ` (overridden by ${loaded.fromEnv.join(', ')})` : ''
  console.log(`${what}: ok${env}`)
}

async function health(ctx: Context): Promise<void> {
  const url = urlOf(ctx)
  const reasons = degradedReasons(await ping(url, durationOf(ctx, 'timeout', 3000)))
  if (reasons) throw new FerryError('unhealthy', `degraded: ${url}/v1/ping: ${reasons.join('; ')}`)
  console.log(`ok ${url}/v1/ping`)
}

function service(verb: 'install' | 'uninstall' | 'start' | 'stop' | 'status') {
  return (ctx: Context): number | void => {
    const o: ServiceOptions = {
      packageRoot: ctx.packageRoot,
      root: typeof ctx.values.root === 'string' ? ctx.values.root : '/',
      log: (line: string) => console.log(line),
    }
    if (verb === 'install') return install(o)
    if (verb === 'uninstall') return uninstall(o)
    return control(verb, o)
  }
}

const ROOT = {
  root: { type: 'string' as const, value: 'DIR', help: 'prefix for every path (tests)' },
}

export const OPERATE_COMMANDS: CommandSpec[] = [
  {
    name: 'check-config',
    usage: 'check-config',
    summary: 'validate the config and print every problem',
    run: checkConfig,
  },
  {
    name: 'health',
    usage: 'health [--url URL] [--timeout 3s]',
    summary: 'exit 0 if the agent answers /v1/ping healthy, else 1 (for probes)',
    options: {
      url: { type: 'string', value: 'URL', help: 'the agent, e.g. http://127.0.0.1:9529' },
      timeout: { type: 'string', value: 'DURATION', help: 'how long to wait (default 3s)' },
    },
    run: health,
  },
  {
    name: 'monitor',
    usage: 'monitor [--url URL] [--interval 2s] [--once]',
    summary: 'live view of a running agent (default URL from [http_api] listen)',
    options: {
      url: { type: 'string', value: 'URL', help: 'the agent, e.g. http://127.0.0.1:9529' },
      interval: { type: 'string', value: 'DURATION', help: 'time between frames (default 2s)' },
      once: { type: 'boolean', help: 'print one frame and exit' },
    },
    run: (ctx) =>
      monitorCommand({
        url: urlOf(ctx),
        intervalMs: durationOf(ctx, 'interval', 2000),
        once: ctx.values.once === true,
      }),
  },
  {
    name: 'tap',
    usage: 'tap [--category C,...] [--filter F] [--format lp|json] [--sample S] [--count N]',
    summary: 'print the points a running agent accepts, as they are buffered',
    options: {
      url: { type: 'string', value: 'URL', help: 'the agent, e.g. http://127.0.0.1:9529' },
      category: { type: 'string', value: 'LIST', help: 'categories to show (default all)' },
      filter: {
        type: 'string',
        value: 'F',
        help: 'key=value or key!=value, comma-joined; measurement, tags, fields',
      },
      format: { type: 'string', value: 'FORMAT', help: 'lp (default) or json, one per line' },
      sample: { type: 'string', value: 'SHARE', help: 'show this share of points (0-1]' },
      count: { type: 'string', value: 'N', help: 'exit after N points' },
    },
    run: (ctx) => tapCommand(tapOptions(ctx)),
  },
  ...(['install', 'uninstall', 'start', 'stop', 'status'] as const).map((verb) => ({
    name: `service ${verb}`,
    usage: `service ${verb}${verb.endsWith('install') ? ' [--root DIR]' : ''}`,
    summary:
      verb === 'install'
        ? 'run as a systemd service (user ferry, /etc/ferry, /var/lib/ferry)'
        : verb === 'status'
          ? "show the systemd service's status"
          : `${verb} the systemd service`,
    options: verb.endsWith('install') ? ROOT : {},
    run: service(verb),
  })),
]
