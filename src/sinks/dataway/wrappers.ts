/**
 * Behaviour around a Send, composed rather than flagged: a per-attempt timeout, retries with
 * exponential backoff and full jitter (honouring Retry-After) until a deadline, and metrics.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { deadline } from '../../shared/deadline.js'
import type { UploadBody } from './bodies.js'
import { UploadError, type Send } from './send.js'

export function withTimeout(send: Send, ms: number): Send {
  return async (body, signal) => {
    const d = deadline(ms, signal)
    try {
      return await send(body, d.signal)
    } finally {
      d.clear()
    }
  }
}

export interface RetryPolicy {
  initialMs: number
  maxMs: number
  /** Give up (and let the caller drop the body) once it is older than this. */
  deadline: (body: UploadBody) => number
  onRetry: (body: UploadBody, err: UploadError, waitMs: number) => void
  /** The clock and the wait between attempts (replaced by a virtual clock in tests). */
  clock?: Clock
}

export interface Clock {
  now(): number
  sleep(ms: number, signal: AbortSignal): Promise<void>
}

const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => sleep(ms, undefined, { signal }).catch(() => undefined),
}

/** Full jitter: a uniform wait in [0, min(max, initial * 2^attempt)]. */
export function backoff(
  attempt: number,
  p: Pick<RetryPolicy, 'initialMs' | 'maxMs'>,
  random = Math.random,
): number {
  return Math.floor(random() * Math.min(p.maxMs, p.initialMs * 2 ** attempt))
}

export function withRetry(send: Send, p: RetryPolicy): Send {
  const clock = p.clock ?? realClock
  return async (body, signal) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await send(body, signal)
      } catch (e) {
        if (!(e instanceof UploadError) || !e.retryable || signal.aborted) throw e
        const wait = Math.max(backoff(attempt, p), e.retryAfterMs ?? 0)
        if (clock.now() + wait > p.deadline(body)) throw e
        p.onRetry(body, e, wait)
        await clock.sleep(wait, signal)
        if (signal.aborted) throw e
      }
    }
  }
}

export interface SendObserver {
  (body: UploadBody, outcome: string, seconds: number): void
}

export function withMetrics(send: Send, observe: SendObserver): Send {
  return async (body, signal) => {
    const started = performance.now()
    try {
      await send(body, signal)
      observe(body, 'ok', (performance.now() - started) / 1000)
    } catch (e) {
      const outcome =
        e instanceof UploadError ? (e.httpStatus ? String(e.httpStatus) : 'network') : 'error'
      observe(body, outcome, (performance.now() - started) / 1000)
      throw e
    }
  }
}
