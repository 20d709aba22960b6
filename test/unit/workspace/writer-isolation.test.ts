/** A body that cannot be stored fails alone: the rest of its group commits (issue 15). */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { FerryError } from '../../../src/errors.js'
import { newPoint } from '../../../src/shared/point.js'
import { toColumns } from '../../../src/workspace/ingest/columns.js'
import { Catalog } from '../../../src/workspace/store/catalog.js'
import type { Db } from '../../../src/workspace/store/db.js'
import { Writer } from '../../../src/workspace/store/writer.js'

/** The far side: a connection that refuses any DDL naming `poison`, and records commits. */
function fakeDb(gate: Promise<void>) {
  const commits: string[][] = []
  let statements: string[] = []
  const con = {
    run: async (sql: string) => {
      if (sql.includes('poison'))
        throw new Error('Catalog Error: Column with name Host already exists!')
      if (sql === 'BEGIN TRANSACTION') statements = []
      else if (sql === 'COMMIT') commits.push(statements)
      else statements.push(sql)
    },
    runAndReadAll: async () => ({ getRows: () => [] }),
    createAppender: async () => ({ appendDataChunk() {}, flushSync() {}, closeSync() {} }),
  }
  const db = { exclusive: async (fn: (c: unknown) => Promise<unknown>) => (await gate, fn(con)) }
  return { db: db as unknown as Db, commits }
}

const req = (workspaceId: string, measurement: string) => ({
  workspaceId,
  category: 'metric' as const,
  tables: toColumns('metric', [newPoint(measurement)]),
  points: 1,
  pkgId: null,
})

test('a poison body of one workspace fails alone with 422; the others of its group commit', async () => {
  let open!: () => void
  const { db, commits } = fakeDb(new Promise<void>((r) => (open = r)))
  const w = new Writer(db, new Catalog(), {
    maxPendingPoints: 100,
    commitMaxPoints: 100,
    dedupeWindowMs: 1000,
  })
  // The first write takes the loop; the next three wait and are committed as one group.
  const first = w.submit(req('wksp_a', 'm0'))
  const good = w.submit(req('wksp_a', 'm1'))
  const poison = w.submit(req('wksp_a', 'poison'))
  const other = w.submit(req('wksp_b', 'm2'))
  open()
  assert.deepEqual(await first, { stored: 1, duplicate: false })
  assert.deepEqual(await good, { stored: 1, duplicate: false })
  assert.deepEqual(await other, { stored: 1, duplicate: false })
  await assert.rejects(poison, (e: unknown) => {
    assert.ok(e instanceof FerryError)
    assert.deepEqual([e.code, e.status, e.retryable], ['unstorablePoints', 422, false])
    assert.equal(
      e.message,
      'the body cannot be stored: Catalog Error: Column with name Host already exists!',
    )
    return true
  })
  assert.equal(commits.length, 3)
  assert.equal(w.pending, 0)
})
