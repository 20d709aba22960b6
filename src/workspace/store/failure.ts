/**
 * What a failed write is answered. A body that failed in a transaction of its own, with an
 * error DuckDB raises for the data rather than for the database (catalog, conversion,
 * constraint, binding), can never succeed: it is refused with 422 and the reason, so the agent
 * dead-letters it instead of retrying it forever. Anything else (I/O, memory, a database
 * invalidated) may pass later: 503, which the agent retries.
 */
import { FerryError } from '../../errors.js'

const DATA_ERRORS =
  /^(Catalog|Conversion|Constraint|Binder|Invalid Input|Out of Range|Not implemented|Parser) Error/

export function writeFailure(e: unknown, alone: boolean): FerryError {
  if (e instanceof FerryError) return e
  const message = (e as Error).message
  if (alone && DATA_ERRORS.test(message))
    return new FerryError('unstorablePoints', `the body cannot be stored: ${message}`, {
      cause: e,
    })
  return new FerryError('storageFailed', `cannot store points: ${message}`, { cause: e })
}
