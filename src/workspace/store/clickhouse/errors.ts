/**
 * How the ClickHouse client tells its failures apart: a statement ClickHouse refused as the
 * caller's fault (`queryInvalid`), anything else it answered (`storageFailed`, retryable), no
 * node reachable, and no answer within the deadline.
 */
import { FerryError } from '../../../errors.js'

/** ClickHouse error codes that mean the statement itself is wrong (the caller's fault). */
const USER_CODES = new Set([6, 27, 36, 38, 41, 42, 43, 44, 46, 47, 53, 62, 69, 70, 72, 184, 386])

export class ClickHouseError extends FerryError {
  constructor(
    message: string,
    readonly chCode: number | null,
  ) {
    super(chCode !== null && USER_CODES.has(chCode) ? 'queryInvalid' : 'storageFailed', message)
  }
}

/** A failure to reach a node at all, worth trying the next URL for. */
export function unreachable(e: unknown): boolean {
  const code = (e as { code?: string }).code ?? ''
  return /ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|UND_ERR_CONNECT_TIMEOUT|UND_ERR_SOCKET/.test(
    code,
  )
}

/** The call passed its deadline with no answer (a frozen node, or a slow statement). */
export function isTimeout(e: unknown): boolean {
  return e instanceof FerryError && e.code === 'queryTimeout'
}
