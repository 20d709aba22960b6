/**
 * Points left with no field after the corrections are neither echoed nor kept, and are counted
 * (warning type and drop reason `no_field`); a tag and a field whose keys meet only after a
 * correction keep the field. Exact answers, payloads and counters.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { testApp } from '../../helpers/app.js'
import { payloadShapes } from '../../helpers/points.js'

async function post(url: string, body: string) {
  const t = testApp()
  const res = await t.app.request(url, { method: 'POST', body })
  return { status: res.status, text: await res.text(), ...t }
}

async function counter(t: ReturnType<typeof testApp>, name: string) {
  const text = await t.metrics.registry.metrics()
  return text.split('\n').filter((l) => l.startsWith(name + '{'))
}

const TS = '1700000000000000000'

test('a metric whose only field was a string is not echoed, kept or counted as accepted', async () => {
  const body = `m1a,t=1 f=1i ${TS}\nm1b,t=1 s="x" ${TS}`
  const r = await post('/v1/write/metric?echo=lp&precision=n', body)
  assert.equal(r.status, 200)
  assert.equal(r.text, `m1a,t=1 f=1i ${TS}`)
  const [batch] = r.buffer.take()
  assert.equal(batch.points, 1)
  assert.deepEqual(payloadShapes(batch.payload), [
    {
      measurement: 'm1a',
      tags: { t: '1', host: 'my-testing' },
      fields: { f: { int: '1' } },
      time: TS,
    },
  ])
  assert.deepEqual(await counter(r, 'ferry_write_points_dropped_total'), [
    'ferry_write_points_dropped_total{category="metric",reason="no_field"} 1',
  ])
  assert.deepEqual(await counter(r, 'ferry_write_point_warnings_total'), [
    'ferry_write_point_warnings_total{category="metric",type="invalid_field_value_type"} 1',
    'ferry_write_point_warnings_total{category="metric",type="no_field"} 1',
  ])
  assert.deepEqual(await counter(r, 'ferry_write_points_total'), [
    'ferry_write_points_total{category="metric"} 1',
  ])
})

test('a body of field-less points only: 200, nothing echoed, nothing buffered', async () => {
  const r = await post('/v1/write/metric?echo=json', `m,t=1 s="x" ${TS}\nn u="y",v="z" ${TS}`)
  assert.equal(r.status, 200)
  assert.equal(r.text, '[]')
  assert.equal(r.buffer.stats().batches, 0)
  assert.deepEqual(await counter(r, 'ferry_write_points_dropped_total'), [
    'ferry_write_points_dropped_total{category="metric",reason="no_field"} 2',
  ])
})

test('strict still refuses the correction that emptied the point', async () => {
  const r = await post('/v1/write/metric?strict', `m,t=1 s="x" ${TS}`)
  assert.equal(r.status, 400)
  assert.deepEqual(JSON.parse(r.text), {
    error_code: 'agent.pointGotWarning',
    message: 'invalid_field_value_type: field s: string values are not allowed here, dropped',
  })
})

test('over-long tag and field keys truncated to the same key: the field is kept', async () => {
  const k = 'k'.repeat(256)
  const r = await post('/v1/write/metric?echo=lp&precision=n', `m,${k}a=v ${k}b=1i ${TS}`)
  assert.equal(r.status, 200)
  assert.equal(r.text, `m ${k}=1i ${TS}`)
  const pb = await post('/v1/write/metric?echo=pbjson&precision=n', `m,${k}a=v ${k}b=1i ${TS}`)
  assert.deepEqual(JSON.parse(pb.text)[0].warns, [
    { type: 'exceed_max_tag_key_len', message: `key truncated to ${k}` },
    { type: 'exceed_max_field_key_len', message: `key truncated to ${k}` },
    {
      type: 'invalid_tag_key',
      message: `tag key "${k}" is also a field key after correction, tag dropped`,
    },
  ])
})

test('a dot renamed into a field key: the field is kept; keys equal as sent: the tag wins', async () => {
  const dot = await post('/v1/write/logging?echo=lp&precision=n', `m,a.b=x,status=ok a_b=1i ${TS}`)
  assert.equal(dot.text, `m,status=ok a_b=1i ${TS}`)
  const same = await post('/v1/write/metric?echo=lp&precision=n', `abc,b=abc a=1i,b=2 ${TS}`)
  assert.equal(same.text, `abc,b=abc a=1i ${TS}`)
})
