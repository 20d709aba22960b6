/**
 * The wrappers around one upload attempt, on a virtual clock: full-jitter backoff bounds,
 * Retry-After honoured, permanent errors not retried, the deadline ends retrying, shutdown
 * stops a wait, a per-attempt timeout aborts, and metrics see every attempt's outcome.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { UploadBody } from '../../../src/sinks/dataway/bodies.js'
import { UploadError, type Send } from '../../../src/sinks/dataway/send.js'
import {
  backoff,
  withMetrics,
  withRetry,
  withTimeout,
  type Clock,
} from '../../../src/sinks/dataway/wrappers.js'

const body = { pkgId: 'p', receivedAt: 0 } as UploadBody

/** A clock whose sleeps pass at once, advancing virtual time and recording each wait. */
function virtualClock(): Clock & { waits: number[]; t: number } {
  const c = {
    t: 0,
    waits: [] as number[],
    now: () => c.t,
    async sleep(ms: number) {
      c.waits.push(ms)
      c.t += ms
    },
  }
  return c
}

/** A send failing with the given errors in turn, then succeeding. */
function failing(errors: UploadError[]): Send & { calls: number } {
  const f = Object.assign(
    async () => {
      const e = errors[f.calls++]
      if (e) throw e
    },
    { calls: 0 },
  )
  return f
}

const retryable = (retryAfterMs?: number) => new UploadError(true, '503', 503, '', retryAfterMs)

test('backoff: uniform in [0, min(max, initial * 2^attempt)]', () => {
  const p = { initialMs: 100, maxMs: 1000 }
  assert.equal(
    backoff(0, p, () => 0.999999),
    99,
  )
  assert.equal(
    backoff(3, p, () => 0.5),
    400,
  )
  assert.equal(
    backoff(10, p, () => 0.999999),
    999,
  )
  assert.equal(
    backoff(10, p, () => 0),
    0,
  )
})

test('retries until delivered, waiting at least Retry-After', async () => {
  const clock = virtualClock()
  const send = failing([retryable(), retryable(5000), retryable()])
  const retried: number[] = []
  const policy = { initialMs: 10, maxMs: 100, deadline: () => 1e9, clock }
  await withRetry(send, { ...policy, onRetry: (_b, _e, w) => void retried.push(w) })(
    body,
    new AbortController().signal,
  )
  assert.equal(send.calls, 4)
  assert.deepEqual(clock.waits, retried)
  assert.ok(clock.waits[0] <= 10 && clock.waits[2] <= 40)
  assert.equal(clock.waits[1], 5000, 'Retry-After wins over a shorter backoff')
})

test('a permanent error is not retried; the deadline ends retrying', async () => {
  const clock = virtualClock()
  const permanent = new UploadError(false, '400', 400)
  const quiet = { initialMs: 10, maxMs: 10, onRetry: () => undefined, clock }
  const once = failing([permanent])
  await assert.rejects(
    withRetry(once, { ...quiet, deadline: () => 1e9 })(body, new AbortController().signal),
    permanent,
  )
  assert.equal(once.calls, 1)
  const forever = failing(Array.from({ length: 100 }, () => retryable(30)))
  await assert.rejects(
    withRetry(forever, { ...quiet, deadline: () => 100 })(body, new AbortController().signal),
  )
  assert.equal(forever.calls, 4, '30 ms each: attempts at 0, 30, 60, 90; the next would pass 100')
})

test('shutdown during a wait ends the retries with the last error', async () => {
  const ac = new AbortController()
  const clock: Clock = { now: () => 0, sleep: async () => ac.abort() }
  const send = failing([retryable(), retryable()])
  await assert.rejects(
    withRetry(send, {
      initialMs: 1,
      maxMs: 1,
      deadline: () => 1e9,
      onRetry: () => undefined,
      clock,
    })(body, ac.signal),
  )
  assert.equal(send.calls, 1)
})

test('the timeout aborts one attempt; metrics see each outcome', async () => {
  const hang: Send = (_b, signal) =>
    new Promise((_r, reject) =>
      signal.addEventListener('abort', () => reject(new UploadError(true, 'aborted', 0))),
    )
  const seen: string[] = []
  const send = withMetrics(withTimeout(hang, 20), (_b, outcome) => void seen.push(outcome))
  // AbortSignal.timeout does not hold the process open; this keeps it until the abort, however
  // late a loaded machine runs the timer.
  const alive = setInterval(() => undefined, 100)
  await assert.rejects(send(body, new AbortController().signal)).finally(() => clearInterval(alive))
  await withMetrics(
    async () => undefined,
    (_b, outcome) => void seen.push(outcome),
  )(body, new AbortController().signal)
  await assert.rejects(
    withMetrics(failing([new UploadError(false, 'no', 404)]), (_b, o) => void seen.push(o))(
      body,
      new AbortController().signal,
    ),
  )
  assert.deepEqual(seen, ['network', 'ok', '404'])
})
