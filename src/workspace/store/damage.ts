/**
 * Recognises DuckDB's errors for a damaged database file, as opposed to errors of one
 * statement (a bad query, a conversion) or of the moment (memory, a timeout). The start probe
 * meets damage in the newest rows; everything older is met by the first query or write that
 * reads it, and only its error says so. The texts are DuckDB's own (1.5):
 * - `IO Error: Corrupt database file: computed checksum <n> does not match stored checksum <n>
 *   in block at location <n>`: a data or metadata block was overwritten;
 * - `IO Error: Could not read enough bytes from file "<file>": ...`: the file was truncated;
 * - `FATAL Error: Failed: database has been invalidated because of a previous fatal error`:
 *   after a fatal error DuckDB refuses every statement until it is restarted.
 */

import { FerryError } from '../../errors.js'

/** What to do about damage, in every message that reports it. */
export const DAMAGE_ADVICE = 'run ferry workspace verify, then ferry workspace repair'

/** How damage is reported everywhere (start, answers, log, ping): what failed and what to run. */
export function damagedText(detail: string): string {
  return `the workspace database is damaged (${detail}); ${DAMAGE_ADVICE}`
}

export function damagedError(detail: string, cause?: unknown): FerryError {
  return new FerryError('workspaceDamaged', damagedText(detail), { cause })
}

const DAMAGE = [
  /Corrupt database file/,
  /checksum \S+ does not match stored checksum/,
  /Could not read enough bytes from file/,
  /database has been invalidated/,
]

/** The first line of an error's message (DuckDB appends details on further lines). */
function firstLine(message: string): string {
  const end = message.indexOf('\n')
  return (end < 0 ? message : message.slice(0, end)).trim()
}

/**
 * DuckDB's message when `e` (or an error it wraps, through `cause`) says the database file is
 * damaged, or null.
 */
export function damageMessage(e: unknown): string | null {
  let err = e
  for (let depth = 0; err instanceof Error && depth < 5; depth++) {
    const message = err.message
    if (DAMAGE.some((re) => re.test(message))) return firstLine(message)
    err = err.cause
  }
  return null
}

/**
 * Whether DuckDB's `message` says another process holds the file's lock ("Could not set lock
 * on file"). A word match: damage reports name a "block", which a bare /lock/ took for a lock
 * (checksum damage was reported as `databaseLocked`).
 */
export function isLockMessage(message: string): boolean {
  return damageMessage(new Error(message)) === null && /\block\b/i.test(message)
}
