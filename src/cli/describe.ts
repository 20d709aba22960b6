/**
 * Turns what a command threw into its one line for stderr and its exit status. FerryErrors and
 * the system errors a user can cause (a missing file, a port in use) get one line; anything
 * else is a bug, and keeps its stack so it can be reported.
 */
import { FerryError } from '../errors.js'
import { reason } from './config.js'

export interface Failure {
  message: string
  status: 1 | 2
}

const LISTEN_REASONS: Record<string, string> = {
  EADDRINUSE: 'address already in use',
  EADDRNOTAVAIL: 'address not available on this host',
  EACCES: 'permission denied',
}

function systemError(e: NodeJS.ErrnoException): string | null {
  const at = e as NodeJS.ErrnoException & { address?: string; port?: number }
  if (e.syscall === 'listen' && e.code && LISTEN_REASONS[e.code])
    return `cannot listen on ${at.address}${at.port === undefined ? '' : `:${at.port}`}: ${LISTEN_REASONS[e.code]}`
  if (e.path && (e.code === 'ENOENT' || e.code === 'EACCES' || e.code === 'ENOTDIR'))
    return `cannot read ${e.path}: ${reason(e)}`
  return null
}

export function describeFailure(e: unknown): Failure {
  if (e instanceof FerryError) {
    // A config with several problems names one per line.
    const lines = (e.message || e.code).split('\n').map((l) => `ferry: ${l}`)
    return { message: lines.join('\n'), status: e.code === 'usage' ? 2 : 1 }
  }
  const sys = e instanceof Error ? systemError(e as NodeJS.ErrnoException) : null
  if (sys) return { message: `ferry: ${sys}`, status: 1 }
  return { message: `ferry: unexpected error: ${(e as Error)?.stack ?? String(e)}`, status: 1 }
}
