/** The smaller commands: monitor, service, buffer tools, pipeline test, check-config. */
import { salvageBuffer } from '../buffer/disk/salvage.js'
import { formatReport, inspectBuffer } from '../buffer/disk/tools.js'
import { bufferPath } from '../agent-parts.js'
import { loadConfig } from '../config/load.js'
import { parseDuration } from '../config/units.js'
import { FerryError } from '../errors.js'
import { agentUrl, monitorCommand } from '../monitor/cli.js'
import { PIPELINE_USAGE, pipelineTest } from '../pipeline/cli.js'
import { control, install, uninstall, SERVICE_USAGE } from '../service/service.js'
import type { Args } from './args.js'

export async function monitor(args: Args): Promise<void> {
  const f = args.flags
  let url = f.url as string | undefined
  if (!url) {
    const { config } = loadConfig(args.config)
    url = agentUrl(config.http_api.listen, Boolean(config['http_api.tls'].cert))
  }
  const interval = typeof f.interval === 'string' ? parseDuration(f.interval) : [2000]
  if (!interval) throw new FerryError('badRequest', '--interval: expected a duration like "2s"')
  await monitorCommand({ url, intervalMs: interval[0], once: f.once === true })
}

export function service(args: Args, packageRoot: string): void {
  const verb = args.command[1]
  const o = {
    packageRoot,
    root: (args.flags.root as string | undefined) ?? '/',
    log: (line: string) => console.log(line),
  }
  if (verb === 'install') return install(o)
  if (verb === 'uninstall') return uninstall(o)
  if (verb === 'start' || verb === 'stop' || verb === 'status') {
    const code = control(verb, o)
    if (code !== 0) process.exitCode = code
    return
  }
  throw new FerryError('badRequest', `usage:\n${SERVICE_USAGE}`)
}

export async function buffer(args: Args): Promise<void> {
  const [, sub] = args.command
  if (sub === 'salvage') {
    const r = await salvageBuffer(String(args.flags.from), String(args.flags.to))
    const n = Object.values(r.recovered).reduce((k, c) => k + c.records, 0)
    return void console.log(args.flags.json ? JSON.stringify(r) : `salvaged ${n} records`)
  }
  const path = (args.flags.path as string | undefined) ?? bufferPath(loadConfig(args.config).config)
  if (sub !== 'inspect' && sub !== 'verify')
    throw new FerryError('badRequest', 'usage: ferry buffer inspect|verify [--path P] [--json]')
  const report = await inspectBuffer(path)
  console.log(args.flags.json ? JSON.stringify(report) : formatReport(report))
}

export async function pipeline(args: Args): Promise<void> {
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

export function checkConfig(args: Args): void {
  const loaded = loadConfig(args.config)
  const what = loaded.file ?? '(no file: defaults and ENV_*, container mode)'
  const env = loaded.fromEnv.length ? ` (overridden by ${loaded.fromEnv.join(', ')})` : ''
  console.log(`${what}: ok${env}`)
}
