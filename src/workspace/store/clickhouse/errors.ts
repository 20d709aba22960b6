/**
 * How the ClickHouse client tells its failures apart: a statement ClickHouse refused as the
 * caller's fault (`queryInvalid`), anything else it answered (`storageFailed`, retryable), no
 * node reachable, and no answer within the deadline.
 */
import { FerryError } from '../../../errors.js'
import { UNAVAILABLE_RETRY_AFTER_S } from './health.js'

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

/**
 * A write ClickHouse did not take: past its deadline or unanswered it is 503 with
 * `Retry-After` (the agent keeps the body and sends it again), never a 504 the agent might
 * count as final.
 */
export function unstored(e: unknown): unknown {
  if (!(e instanceof FerryError)) return e
  if (e.code !== 'queryTimeout' && e.code !== 'storageFailed') return e
  if (e.retryAfter !== undefined && e.code === 'storageFailed') return e
  return new FerryError('storageFailed', `points not stored: ${e.message}`, {
    cause: e,
    retryAfter: UNAVAILABLE_RETRY_AFTER_S,
  })
}
