/** `POST /v1/lasterror` (spec 4.15): validation, the stored point, metrics, recent errors. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { testApp } from '../../helpers/app.js'
import { payloadShapes } from '../../helpers/points.js'

const post = (app: ReturnType<typeof testApp>['app'], body: string) =>
  app.request('/v1/lasterror', { method: 'POST', body })

test('input and err_content are required strings', async () => {
  const { app, buffer } = testApp()
  const missing = {
    error_code: 'agent.invalidLastError',
    message: 'input and err_content are required strings',
  }
  for (const body of [
    '{}',
    '{"input":"mysql"}',
    '{"err_content":"boom"}',
    '{"input":"","err_content":"boom"}',
    '{"input":1,"err_content":"boom"}',
    '[]',
    'null',
  ]) {
    const res = await post(app, body)
    assert.equal(res.status, 400, body)
    assert.deepEqual(await res.json(), missing, body)
  }
  const bad = await post(app, '{"input":')
  assert.equal(bad.status, 400)
  assert.equal(((await bad.json()) as { error_code: string }).error_code, 'agent.invalidJson')
  assert.equal(buffer.stats().points, 0)
})

test('a report is stored as a logging point, counted, and listed among recent errors', async () => {
  const { app, buffer, metrics, events } = testApp({ hostTags: { region: 'eu' } })
  const res = await post(
    app,
    '{"input":"mysql","source":"mysql-main","err_content":"dial tcp: connection refused"}',
  )
  assert.equal(res.status, 200)
  assert.equal(await res.text(), '')
  const [batch] = buffer.take(10)
  assert.equal(batch.category, 'logging')
  const [p] = payloadShapes(batch.payload)
  assert.deepEqual(
    { measurement: p.measurement, tags: p.tags, fields: p.fields },
    {
      measurement: 'ferry_lasterror',
      tags: {
        input: 'mysql',
        error_source: 'mysql-main',
        status: 'error',
        host: 'my-testing',
        region: 'eu',
      },
      fields: { message: { string: 'dial tcp: connection refused' } },
    },
  )
  const text = await metrics.registry.metrics()
  assert.match(text, /^ferry_last_error_reports_total\{input="mysql"\} 1$/m)
  assert.deepEqual(
    events.recent.list().map((e) => [e.kind, e.source, e.message]),
    [['lasterror', 'mysql/mysql-main', 'dial tcp: connection refused']],
  )
})

test('the input label is bounded: past 64 names reports count as "other"', async () => {
  const { app, metrics } = testApp()
  for (let i = 0; i < 70; i++) await post(app, `{"input":"in${i}","err_content":"e"}`)
  const text = await metrics.registry.metrics()
  assert.equal(text.match(/^ferry_last_error_reports_total\{/gm)?.length, 65)
  assert.match(text, /^ferry_last_error_reports_total\{input="other"\} 6$/m)
})
