/**
 * The dedupe part of the StorageEngine contract (src/workspace/store/dedupe.ts): a duplicate is
 * the same id with the same content, or the same content under any id; a reused id with other
 * content is stored. Every engine runs it through `dedupeContract`.
 */
import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import type { StorageEngine } from '../../../src/workspace/store/engine.js'
import { fingerprintReady } from '../../../src/workspace/ingest/fingerprint.js'
import { count, engineRunner, request } from './engine-contract.js'

export function dedupeContract(name: string, open: () => Promise<StorageEngine>): void {
  before(() => fingerprintReady)
  const withEngine = engineRunner(open)
  const now = BigInt(Date.now()) * 1_000_000n
  const stored = (n: number) => ({ stored: n, duplicate: false })

  test(
    `${name}: a body re-sent under a new id is a duplicate by content`,
    withEngine(async (e) => {
      const body = `m,host=a v=1 ${now}\nm,host=b v=2 ${now}`
      assert.deepEqual(await e.ingest(request(body, 'dk_1')), stored(2))
      const again = await e.ingest(request(body, 'dk_2'))
      assert.deepEqual(again, { stored: 0, duplicate: true, dedupe: 'content' })
      const noId = await e.ingest(request(body, null))
      assert.deepEqual(noId, { stored: 0, duplicate: true, dedupe: 'content' })
      assert.equal(await count(e, 'M::m'), 2)
    }),
  )

  test(
    `${name}: a different body under a reused id is stored, and said to reuse it`,
    withEngine(async (e) => {
      assert.deepEqual(await e.ingest(request(`m v=1 ${now}`, 'dk_1', 'logging')), stored(1))
      const other = await e.ingest(request(`m v=2 ${now}\nm v=3 ${now}`, 'dk_1', 'metric'))
      assert.deepEqual(other, { stored: 2, duplicate: false, reusedId: true })
      const same = await e.ingest(request(`m v=2 ${now}\nm v=3 ${now}`, 'dk_1', 'metric'))
      assert.deepEqual(same, { stored: 0, duplicate: true, dedupe: 'id' })
      assert.equal(await count(e, 'L::m'), 1)
      assert.equal(await count(e, 'M::m'), 2)
    }),
  )

  test(
    `${name}: the same content in another category or workspace is another body`,
    withEngine(async (e) => {
      const body = `m v=1 ${now}`
      assert.deepEqual(await e.ingest(request(body, 'a', 'metric')), stored(1))
      assert.deepEqual(await e.ingest(request(body, 'b', 'logging')), stored(1))
      assert.deepEqual(await e.ingest(request(body, 'a', 'metric', 'wksp_other')), stored(1))
      assert.equal(await count(e, 'M::m'), 1)
      assert.equal(await count(e, 'L::m'), 1)
      assert.equal(await count(e, 'M::m', 'wksp_other'), 1)
    }),
  )

  test(
    `${name}: bodies with points stamped on arrival are never duplicates by content`,
    withEngine(async (e) => {
      assert.deepEqual(await e.ingest(request('m v=1', 'x1')), stored(1))
      assert.deepEqual(await e.ingest(request('m v=1', 'x2')), stored(1))
      assert.deepEqual(await e.ingest(request('m v=1', 'x2')), {
        stored: 0,
        duplicate: true,
        dedupe: 'id',
      })
      assert.equal(await count(e, 'M::m'), 2)
    }),
  )

  test(
    `${name}: the same body twice in one commit is stored once`,
    withEngine(async (e) => {
      const body = `m v=1 ${now}`
      const all = await Promise.all(['k1', 'k2', 'k1'].map((id) => e.ingest(request(body, id))))
      assert.equal(all.filter((r) => !r.duplicate).length, 1)
      assert.equal(await count(e, 'M::m'), 1)
    }),
  )
}
