/** One task on a Piscina pool, with the project's error classes; used by every pool. */
import type { Piscina } from 'piscina'
import { FerryError } from '../errors.js'

/**
 * Runs one task on a pool, transferring the buffers in `transfer` (the body, a spare). A full
 * queue becomes the caller's busy error (503 with Retry-After). Tasks return their errors as
 * data, so a rejection means the worker itself failed (died, ran out of memory): 503
 * `decodeWorkerDied`, retryable.
 */
export async function runPooled<R>(
  pool: Piscina,
  task: unknown,
  transfer: ArrayBuffer[],
  busy: () => FerryError,
  died?: (err: Error) => void,
): Promise<R> {
  try {
    return (await pool.run(task, transfer.length ? { transferList: transfer } : {})) as R
  } catch (e) {
    if ((e as Error).message?.includes('queue is at limit')) throw busy()
    died?.(e as Error)
    throw new FerryError(
      'decodeWorkerDied',
      `the decode worker handling this request died (${(e as Error).message}); it has been replaced, retry the request`,
      { cause: e, retryAfter: 1 },
    )
  }
}
