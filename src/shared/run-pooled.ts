/** One task on a Piscina pool, with the project's error classes; used by every pool. */
import type { Piscina } from 'piscina'
import { FerryError } from '../errors.js'

/**
 * Runs one task on a pool, transferring `body`. A full queue becomes the caller's busy error
 * (503 with Retry-After); a crashed worker an internal error.
 */
export async function runPooled<R>(
  pool: Piscina,
  task: unknown,
  body: ArrayBuffer | null,
  busy: () => FerryError,
): Promise<R> {
  try {
    return (await pool.run(task, body ? { transferList: [body] } : {})) as R
  } catch (e) {
    if ((e as Error).message?.includes('queue is at limit')) throw busy()
    throw new FerryError('internalError', `decode worker failed: ${(e as Error).message}`, {
      cause: e,
    })
  }
}
