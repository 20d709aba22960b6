/**
 * The config a command reads. A path the user names (--config or FERRY_CONFIG) must exist: a
 * typo must not quietly start an agent on defaults. Only the package's default path may be
 * missing, which (as with FERRY_CONTAINER=1) means defaults plus ENV_* (container mode).
 */
import fs from 'node:fs'
import { containerMode, loadConfig, type LoadedConfig } from '../config/load.js'
import { FerryError } from '../errors.js'
import type { Context } from './spec.js'

export function configPath(ctx: Context): string {
  return ctx.configFlag ?? ctx.defaultConfig
}

export function cliConfig(ctx: Context, env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  const path = configPath(ctx)
  if (ctx.configFlag !== null && !containerMode(env)) mustRead(path, 'config')
  return loadConfig(path, env)
}

/** Throws `cannot read <what> PATH: <reason>` unless `path` is a readable file. */
export function mustRead(path: string, what = ''): void {
  const name = what ? `${what} ${path}` : path
  let stat: fs.Stats
  try {
    stat = fs.statSync(path)
    fs.accessSync(path, fs.constants.R_OK)
  } catch (e) {
    throw new FerryError('fileUnreadable', `cannot read ${name}: ${reason(e)}`)
  }
  if (stat.isDirectory()) throw new FerryError('fileUnreadable', `cannot read ${name}: a directory`)
}

export function reason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code
  if (code === 'ENOENT') return 'no such file'
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied'
  if (code === 'ENOTDIR') return 'not a directory'
  return (e as Error).message
}
