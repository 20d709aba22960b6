/** The per-workspace ingest quota (issue 15): 429 with Retry-After, workspaces apart. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { FerryError } from '../../../src/errors.js'
import { IngestQuota } from '../../../src/workspace/ingest/quota.js'

test('over the quota a write gets 429 until the bucket refills; other workspaces are apart', () => {
  let now = 0
  const q = new IngestQuota(1000, () => now)
  q.take('a', 1500)
  assert.throws(
    () => q.take('a', 1),
    (e: unknown) =>
      e instanceof FerryError &&
      e.status === 429 &&
      e.code === 'ingestQuotaExceeded' &&
      e.retryAfter === 1 &&
      e.message === 'the workspace is over its ingest quota of 1000 points/s; retry later',
  )
  q.take('b', 1000)
  now = 600
  q.take('a', 10)
})

test('a quota of 0 admits everything', () => {
  const q = new IngestQuota(0)
  for (let i = 0; i < 5; i++) q.take('a', 1e9)
})
