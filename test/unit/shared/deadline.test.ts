import assert from 'node:assert/strict'
import { test } from 'node:test'
import { deadline } from '../../../src/shared/deadline.js'

test('a deadline aborts after its time even when a GC runs meanwhile', async () => {
  const gc = (globalThis as { gc?: () => void }).gc
  const d = deadline(30)
  // Nothing but the listener refers to the signal: the timer must keep it alive.
  const aborted = new Promise<unknown>((resolve) =>
    d.signal.addEventListener('abort', () => resolve(d.signal.reason)),
  )
  gc?.()
  const alive = setInterval(() => undefined, 100)
  const reason = (await aborted.finally(() => clearInterval(alive))) as DOMException
  assert.equal(reason.name, 'TimeoutError')
  assert.equal(reason.message, 'timed out after 30 ms')
})

test('a deadline follows the signals it was given, and clear() stops its timer', async () => {
  const outer = new AbortController()
  const d = deadline(60_000, outer.signal)
  outer.abort(new Error('stopped'))
  assert.equal(d.signal.aborted, true)
  assert.equal((d.signal.reason as Error).message, 'stopped')
  const e = deadline(20)
  e.clear()
  await new Promise((r) => setTimeout(r, 60))
  assert.equal(e.signal.aborted, false)
})
