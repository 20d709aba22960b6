/**
 * `ferry workspace retention set|clear|list`: a workspace's own retention per category. Durations
 * are read as config durations are (`14d`, `12h`, `90m`), or `forever` (also `0`); they are
 * printed in the largest unit that divides them exactly, so `14d` reads back as `14d`.
 */
import type { Config } from '../config/schema.js'
import { parseDuration } from '../config/units.js'
import { FerryError } from '../errors.js'
import { withAdmin } from './admin-client.js'
import type { RetentionEntry } from './retention-admin.js'
import { WORKSPACE_USAGE } from './usage.js'

type Print = (text: string, json: unknown) => void

const UNITS: [string, number][] = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1000],
]

export function formatKeep(ms: number): string {
  if (ms === 0) return 'forever'
  for (const [unit, size] of UNITS) if (ms % size === 0) return `${ms / size}${unit}`
  return `${ms}ms`
}

export function parseKeep(text: string): number {
  if (text === 'forever') return 0
  const ms = parseDuration(text)
  if (ms) return ms[0]
  throw new FerryError(
    'invalidParameter',
    `${JSON.stringify(text)} is not a retention: a duration such as 14d or 12h, or forever`,
  )
}

const line = (e: RetentionEntry) => `${e.workspace}\t${e.category}\t${formatKeep(e.keepMs)}`

export async function retentionCommand(cfg: Config, args: string[], print: Print): Promise<void> {
  const [verb, ws, category, keep] = args
  const usage = () => new FerryError('usage', `usage:\n${WORKSPACE_USAGE}`)
  if (verb === 'set' && ws && category && keep) {
    const keepMs = parseKeep(keep)
    const e = await withAdmin(cfg, (ops) => ops.setRetention(ws, category, keepMs))
    return print(`${e.workspace} keeps ${e.category} ${formatKeep(e.keepMs)}`, e)
  }
  if (verb === 'clear' && ws && category) {
    const cleared = await withAdmin(cfg, (ops) => ops.clearRetention(ws, category))
    const text = cleared
      ? `${ws} keeps ${category} as the global retention says`
      : `${ws} had no ${category} retention of its own`
    return print(text, { workspace: ws, category, cleared })
  }
  if (verb === 'list') {
    const all = await withAdmin(cfg, (ops) => ops.listRetention(ws))
    const none = ws
      ? `(${ws} has no retention of its own)`
      : '(no workspace has a retention of its own)'
    return print(all.map(line).join('\n') || none, all)
  }
  throw usage()
}
