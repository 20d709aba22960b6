/** The bound on upload bytes held by the workspace between a write's arrival and its answer. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { FerryError } from '../../../src/errors.js'
import { Admission } from '../../../src/workspace/ingest/admission.js'

const busy = (e: unknown) =>
  e instanceof FerryError && e.code === 'workspaceBusy' && e.status === 503 && e.retryAfter === 1

test('writes are admitted up to the bound, then refused with a retryable 503', () => {
  const a = new Admission(100)
  const t1 = a.admit(60)
  const t2 = a.admit(40)
  assert.equal(a.bytes, 100)
  assert.throws(() => a.admit(1), busy)
  t1.release()
  t1.release() // idempotent
  assert.equal(a.bytes, 40)
  a.admit(60).release()
  t2.release()
  assert.equal(a.bytes, 0)
})

test('a ticket holds the real size once read, and one write is admitted when none is held', () => {
  const a = new Admission(100)
  const big = a.admit(0)
  big.resize(500) // no Content-Length: the body turned out larger than the bound
  assert.equal(a.bytes, 500)
  assert.throws(() => a.admit(0), busy)
  big.release()
  const alone = a.admit(1000)
  assert.equal(a.bytes, 1000)
  alone.release()
  assert.equal(a.bytes, 0)
})
