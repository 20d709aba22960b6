/**
 * `highlight`: the values a match() or re() filter tested come back with every match wrapped in
 * <em>..</em>, per row, beside `values`; nothing changes without the option or without a
 * pattern filter on a selected column.
 */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { mark } from '../../../src/workspace/dql/highlight.js'
import { query, startWorkspace, writeLp, type TestWorkspace } from '../../helpers/workspace.js'

let w: TestWorkspace
const T = Date.now() - 60_000

before(async () => {
  w = await startWorkspace()
  const lines = [
    `nginx,host=a message="GET /api/users 200",status="ok" ${T}000000`,
    `nginx,host=a message="POST /API/orders 500 api down",status="error" ${T + 1}000000`,
    `nginx,host=b message="GET /health 200",status="ok" ${T + 2}000000`,
  ]
  assert.equal((await writeLp(w, 'logging', lines.join('\n'))).status, 200)
})
after(() => w.stop())

test('match() marks every case-insensitive match of the tested column, per row', async () => {
  const r = await query(w, [
    {
      query: "L::nginx:(message, status) {message = match('api')} ORDER BY time ASC",
      highlight: true,
    },
  ])
  assert.equal(r.status, 200)
  assert.deepEqual(r.body.content[0].series, [
    {
      name: 'nginx',
      columns: ['time', 'message', 'status'],
      values: [
        [T, 'GET /api/users 200', 'ok'],
        [T + 1, 'POST /API/orders 500 api down', 'error'],
      ],
      highlight: [
        { message: ['GET /<em>api</em>/users 200'] },
        { message: ['POST /<em>API</em>/orders 500 <em>api</em> down'] },
      ],
    },
  ])
})

test('re() in conditions and OR: rows that match no pattern get an empty object', async () => {
  const r = await query(w, [
    {
      query: "L::nginx:(message) {status = 'ok' OR message = re('5[0-9]{2}')} ORDER BY time ASC",
      conditions: "status = re('o.')",
      highlight: true,
    },
  ])
  assert.deepEqual(r.body.content[0].series[0].highlight, [
    {},
    { message: ['POST /API/orders <em>500</em> api down'] },
    {},
  ])
  // status is tested by re() but not selected: nothing to mark in it.
  assert.deepEqual(r.body.content[0].series[0].columns, ['time', 'message'])
})

test('without the option, a negated pattern or an aggregate: no highlight key', async () => {
  for (const q of [
    { query: "L::nginx:(message) {message = match('api')}" },
    { query: "L::nginx:(message) {message != match('api')}", highlight: true },
    { query: "L::nginx:(count(message)) {message = match('api')}", highlight: true },
  ]) {
    const r = await query(w, [q])
    assert.equal(r.status, 200)
    assert.equal('highlight' in r.body.content[0].series[0], false, JSON.stringify(q))
  }
})

test('mark: empty matches are skipped, no match is null', () => {
  assert.equal(mark('abc', /x*/g), null)
  assert.equal(mark('abcab', /b*/g), 'a<em>b</em>ca<em>b</em>')
  assert.equal(mark('abc', /abc/g), '<em>abc</em>')
})
