/** JSON-lines logging through pino; the level comes from `[logging] level`. */
import { pino, type Logger } from 'pino'

export type { Logger }

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { svc: 'ferry' },
    timestamp: pino.stdTimeFunctions.isoTime,
    // "level":"warn" rather than pino's numbers: read by people and log shippers alike.
    formatters: { level: (label) => ({ level: label }) },
  })
}

/** A logger that drops everything, for tests that do not look at logs. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' })
}
