/**
 * The embedded workspace's first start: the `default` workspace is created with an API key, so
 * the Open API answers at once. The key is shown once in the log and kept in
 * `<workspace dir>/<name>.api-key` (mode 0600) for scripts: the database keeps only its hash.
 */
import fs from 'node:fs'
import path from 'node:path'
import { FerryError } from '../errors.js'
import type { Logger } from '../telemetry/logger.js'
import type { Workspace } from './store/accounts.js'
import type { AccountStore } from './store/metadata.js'

export function apiKeyFile(dir: string, workspace: string): string {
  return path.join(dir, `${workspace}.api-key`)
}

/** The named workspace; when this call creates it, also its first API key. */
export async function ensureDefaultWorkspace(
  accounts: AccountStore,
  name: string,
  dir: string,
  log: Logger,
): Promise<Workspace> {
  try {
    return await accounts.byName(name)
  } catch (e) {
    if (!(e instanceof FerryError && e.code === 'objectNotFound')) throw e
  }
  const ws = await accounts.create(name)
  const { info, key } = await accounts.createKey(name, 'default')
  const file = apiKeyFile(dir, name)
  fs.writeFileSync(file, `${key}\n`, { mode: 0o600 })
  fs.chmodSync(file, 0o600)
  log.info(
    { event: 'workspace_api_key_created', workspace: name, key_id: info.id, file },
    `API key for workspace ${name}: ${key} (shown once; stored in ${file}, mode 0600)`,
  )
  return ws
}
