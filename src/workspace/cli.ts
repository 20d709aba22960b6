/**
 * `ferry workspace ...` subcommands other than serving: workspaces, API keys and retention. Output is
 * plain text, or JSON with --json.
 */
import type { Config } from '../config/schema.js'
import { FerryError } from '../errors.js'
import { withAdmin } from './admin-client.js'
import { WORKSPACE_USAGE } from './usage.js'
import { workspaceDir } from './service.js'
import { verifyCommand } from './verify.js'
import { repairCommand } from './repair.js'
import { retentionCommand } from './retention-cli.js'

type Print = (text: string, json: unknown) => void

/** A new key's secret on a line of its own, named as the header a client sends it in. */
const keyLine = (secret: string) => ` (shown once)\nDF-API-KEY: ${secret}`

async function keyCommand(cfg: Config, args: string[], print: Print): Promise<void> {
  const [verb, arg, name] = args
  if (!arg) throw new FerryError('badRequest', `usage:\n${WORKSPACE_USAGE}`)
  await withAdmin(cfg, async (ops) => {
    if (verb === 'create') {
      const k = await ops.createKey(arg, name ?? 'cli')
      return print(`api key ${k.info.id} for ${arg}${keyLine(k.key)}`, k)
    }
    if (verb === 'list') {
      const keys = await ops.listKeys(arg)
      const lines = keys.map(
        (k) => `${k.id}\t${k.name}\t${k.prefix}…\t${k.revokedAt ? 'revoked' : 'active'}`,
      )
      return print(lines.join('\n') || '(no keys)', keys)
    }
    if (verb === 'revoke') {
      await ops.revokeKey(arg)
      return print(`revoked ${arg}`, { revoked: arg })
    }
    throw new FerryError('badRequest', `usage:\n${WORKSPACE_USAGE}`)
  })
}

export async function workspaceCommand(cfg: Config, args: string[], json: boolean): Promise<void> {
  const print: Print = (text, data) => console.log(json ? JSON.stringify(data) : text)
  const [verb, arg] = args
  if (verb === 'key') return keyCommand(cfg, args.slice(1), print)
  if (verb === 'retention') return retentionCommand(cfg, args.slice(1), print)
  if (verb === 'verify') return verifyCommand(cfg, json)
  if (verb === 'repair') return repairCommand(workspaceDir(cfg), json)
  await withAdmin(cfg, async (ops) => {
    if (verb === 'create' && arg) {
      const ws = await ops.create(arg)
      const k = await ops.createKey(arg, 'default')
      const text = `workspace ${ws.name} (${ws.id})\ndata token: ${ws.token}\napi key ${k.info.id}${keyLine(k.key)}`
      return print(text, { workspace: ws, apiKey: k })
    }
    if (verb === 'list') {
      const all = await ops.list()
      return print(
        all.map((w) => `${w.name}\t${w.id}\t${w.token}`).join('\n') || '(no workspaces)',
        all,
      )
    }
    throw new FerryError('badRequest', `usage:\n${WORKSPACE_USAGE}`)
  })
}
