/**
 * JSON-lines logging through pino; the level comes from `[logging] level`. Warnings and errors
 * pass a rate limit per kind of line (log-limit.ts): what it holds back is summed up in one
 * line, never dropped uncounted.
 */
import { pino, type DestinationStream, type Logger } from 'pino'
import { LogLimiter, WARN_LEVEL, type LogLimitOptions, type Summary } from './log-limit.js'

export type { Logger }

export interface LoggerOptions {
  /** Off when absent. */
  limit?: LogLimitOptions
  /** Where lines go (stdout when absent; a buffer in tests). */
  destination?: DestinationStream
}

/** Marks a summary line so that the hook lets it through. */
const SUMMARY = Symbol('summary')

export function createLogger(level: string, o: LoggerOptions = {}): Logger {
  const limiter = o.limit ? new LogLimiter(o.limit) : null
  const on = limiter?.enabled ? limiter : null
  const logger: Logger = pino(
    {
      level,
      base: { svc: 'ferry' },
      timestamp: pino.stdTimeFunctions.isoTime,
      // "level":"warn" rather than pino's numbers: read by people and log shippers alike.
      formatters: { level: (label) => ({ level: label }) },
      hooks: {
        logMethod(args, method, lvl) {
          const first: unknown = args[0]
          const fields = typeof first === 'object' && first !== null ? first : {}
          if (!on || lvl < WARN_LEVEL || SUMMARY in fields) return method.apply(this, args)
          const write = (s: Summary) =>
            method.apply(this, [{ ...s.fields, [SUMMARY]: true }, s.message] as never)
          if (on.admit(fields as Record<string, unknown>, write)) method.apply(this, args)
        },
      },
    },
    o.destination,
  )
  if (on) sweepEvery(on, logger, o.limit!.windowMs)
  return logger
}

/** Summaries of windows no later line closes are written by a sweep; unref'd, never holds exit. */
function sweepEvery(limiter: LogLimiter, logger: Logger, windowMs: number): void {
  const timer = setInterval(
    () => limiter.sweep((s) => logger.warn({ ...s.fields, [SUMMARY]: true }, s.message)),
    windowMs,
  )
  timer.unref()
}

/** A logger that drops everything, for tests that do not look at logs. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' })
}
