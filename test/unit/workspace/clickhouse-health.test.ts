/**
 * ClickHouseHealth against a scripted `/ping` (the far side): a failed call with a live ping
 * changes nothing (a slow query is no dead server); with a dead ping the service is down, calls
 * fail at once with 503 + Retry-After, listeners hear it once; the first answering probe makes
 * it up again.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  ClickHouseHealth,
  UNAVAILABLE_RETRY_AFTER_S,
} from '../../../src/workspace/store/clickhouse/health.js'
import { until } from '../../helpers/until.js'

function health(answers: { ok: boolean }) {
  let pings = 0
  const h = new ClickHouseHealth({
    ping: async () => {
      pings++
      return answers.ok
    },
    probeTimeoutMs: 100,
    probeEveryMs: 10,
  })
  const heard: (string | null)[] = []
  h.onChange((d) => heard.push(d))
  return { h, heard, pings: () => pings }
}

test('a failed call while ping answers leaves the service up', async () => {
  const { h, heard, pings } = health({ ok: true })
  await h.suspect('slow query')
  assert.equal(h.down, null)
  assert.doesNotThrow(() => h.admit())
  assert.deepEqual(heard, [])
  assert.equal(pings(), 1)
  h.close()
})

test('no ping answer: down, calls refused at once, then up at the first answer', async () => {
  const answers = { ok: false }
  const { h, heard } = health(answers)
  await Promise.all([h.suspect('no answer in 3000 ms'), h.suspect('again')])
  assert.equal(h.down, 'no answer in 3000 ms')
  assert.throws(
    () => h.admit(),
    (e: { code: string; status: number; retryAfter: number }) =>
      e.code === 'storageFailed' && e.status === 503 && e.retryAfter === UNAVAILABLE_RETRY_AFTER_S,
  )
  await h.suspect('while down')
  assert.deepEqual(heard, ['no answer in 3000 ms'])
  answers.ok = true
  await until(async () => (h.down === null ? true : null), 5_000)
  assert.deepEqual(heard, ['no answer in 3000 ms', null])
  h.close()
})
