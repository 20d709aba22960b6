/** The writer's failure paths: a failing database and a full queue. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { FerryError } from '../../../src/errors.js'
import { Catalog } from '../../../src/workspace/store/catalog.js'
import type { Db } from '../../../src/workspace/store/db.js'
import { Writer } from '../../../src/workspace/store/writer.js'
import { newPoint } from '../../../src/shared/point.js'
import { toColumns } from '../../../src/workspace/ingest/columns.js'

// The far side: a database whose every write fails, and one that never finishes.
const failing = { exclusive: () => Promise.reject(new Error('disk I/O error')) } as unknown as Db
const stuck = { exclusive: () => new Promise(() => undefined) } as unknown as Db
const opts = { maxPendingPoints: 10, commitMaxPoints: 5, dedupeWindowMs: 1000 }
const batch = (n: number) => ({
  tables: toColumns(
    'metric',
    Array.from({ length: n }, () => newPoint('m')),
  ),
  points: n,
})

test('a storage failure rejects every write of the batch as retryable 503', async () => {
  const w = new Writer(failing, new Catalog(), opts)
  const a = w.submit({ workspaceId: 'wksp_x', category: 'metric', ...batch(2), pkgId: null })
  await assert.rejects(a, (e: unknown) => {
    assert.ok(e instanceof FerryError)
    assert.deepEqual([e.code, e.status, e.retryable], ['storageFailed', 503, true])
    assert.equal(e.message, 'cannot store points: disk I/O error')
    return true
  })
  assert.equal(w.pending, 0)
})

test('beyond max_pending_points a write is refused at once with Retry-After', () => {
  const w = new Writer(stuck, new Catalog(), opts)
  void w.submit({ workspaceId: 'wksp_x', category: 'metric', ...batch(8), pkgId: null })
  assert.throws(
    () => w.submit({ workspaceId: 'wksp_x', category: 'metric', ...batch(3), pkgId: null }),
    (e: unknown) => e instanceof FerryError && e.code === 'workspaceBusy' && e.retryAfter === 1,
  )
})
