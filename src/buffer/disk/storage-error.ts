/**
 * A storage failure of the disk buffer (EIO, ENOSPC, map full) as the buffer's retryable 503.
 * Invariant: each failure is reported once, here; lmdb's echoes of it are settled quietly
 * (commit-echo.ts).
 */
import { FerryError } from '../../errors.js'
import { settleCommitFailure } from './commit-echo.js'
import type { BufferEvents } from './types.js'

/** A storage failure as a retryable 503, reported once here (EIO, ENOSPC, map full). */
export function storageError(events: BufferEvents, op: string, e: unknown): FerryError {
  settleCommitFailure(e)
  const err = new FerryError(
    'bufferUnavailable',
    `disk buffer ${op} failed: ${(e as Error).message}; retry later`,
    { retryAfter: 5, cause: e },
  )
  events.storageFailed(op, err.message)
  return err
}
