/**
 * The workspace as the real clients use it (issue 15): the reference agent's forwarded queries
 * (every option present, unset ones as zero values), its configuration pull, session replay
 * uploads and RUM variables, unknown routes, and the Python client's captured traffic.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import zlib from 'node:zlib'
import { after, before, test } from 'node:test'
import { query, startWorkspace, writeLp, type TestWorkspace } from '../helpers/workspace.js'

let w: TestWorkspace
before(async () => {
  w = await startWorkspace()
})
after(() => w.stop())

const T = 1_700_000_000_000

/** The reference agent's query struct as it marshals it when only `query` was given. */
const agentQuery = (q: string) => ({
  time_range: [T - 60_000, T + 60_000],
  search_after: null,
  orderby: null,
  query: q,
  conditions: '',
  max_duration: '',
  max_point: 0,
  limit: 0,
  slimit: 0,
  offset: 0,
  soffset: 0,
  disable_slimit: false,
  disable_multiple_field: false,
  highlight: false,
})

test('the agent forwards zero values for unset options: they mean unset, not "no rows"', async () => {
  const lines = [`rc,host=a v=1 ${T - 2000}000000`, `rc,host=b v=2 ${T - 1000}000000`]
  assert.equal((await writeLp(w, 'metric', lines.join('\n'))).status, 200)
  const { status, body } = await query(w, [agentQuery('M::rc BY host')], {
    token: w.token,
    echo_explain: false,
  })
  assert.equal(status, 200)
  assert.deepEqual(body.content[0].series, [
    { name: 'rc', tags: { host: 'a' }, columns: ['time', 'v'], values: [[T - 2000, 1]] },
    { name: 'rc', tags: { host: 'b' }, columns: ['time', 'v'], values: [[T - 1000, 2]] },
  ])
})

const get = (path: string) => fetch(`${w.base}${path}`)

test('GET /v1/datakit/pull answers the empty configuration for each kind of pull', async () => {
  const cases: [string, unknown][] = [
    ['', { filters: {} }],
    ['&filters=true', { filters: {} }],
    [
      '&remote_pipelines=true&ts=17&relation_ts=19',
      {
        remote_pipelines: {
          update_time: 17,
          pipelines: [],
          relation_update_time: 19,
          relation: [],
        },
      },
    ],
    ['&kv=true&&version=3', { kv: null }],
  ]
  for (const [args, want] of cases) {
    const res = await get(`/v1/datakit/pull?token=${w.token}${args}`)
    assert.equal(res.status, 200)
    assert.deepEqual(await res.json(), want)
  }
})

test('a session replay upload is stored and listed; RUM variables are served', async () => {
  const segment = zlib.deflateSync(JSON.stringify({ records: [{ type: 4 }] }))
  const form = new FormData()
  form.set('segment', new Blob([segment], { type: 'application/octet-stream' }), 's1-1000')
  for (const [k, v] of Object.entries({ app_id: 'app1', session_id: 's1', view_id: 'v1' }))
    form.set(k, v)
  form.set('start', '1000')
  form.set('end', '2000')
  const res = await fetch(`${w.base}/v1/write/rum/replay?token=${w.token}&precision=ms`, {
    method: 'POST',
    body: form,
  })
  assert.equal(res.status, 200)
  const headers = { 'DF-API-KEY': w.key, 'Content-Type': 'application/json' }
  const list = (await (await fetch(`${w.base}/api/v1/rum/replay/list`, { headers })).json()) as {
    content: Record<string, unknown>[]
  }
  const { id, received_at, ...rest } = list.content[0]
  assert.match(String(id), /^replay_[0-9a-f]{32}$/)
  assert.equal(typeof received_at, 'number')
  assert.deepEqual(rest, {
    app_id: 'app1',
    session_id: 's1',
    view_id: 'v1',
    start: 1000,
    end: 2000,
    size: segment.length,
    fields: { app_id: 'app1', session_id: 's1', view_id: 'v1', start: '1000', end: '2000' },
  })
  const set = await fetch(`${w.base}/api/v1/rum/env_variable/set`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ app_id: 'app1', key: 'env', value: 'prod' }),
  })
  assert.equal(set.status, 200)
  const vars = await get(`/v1/env_variable?token=${w.token}&app_id=app1&scope=rum`)
  assert.deepEqual(((await vars.json()) as { content: unknown }).content, { env: 'prod' })
})

test('unknown Dataway routes and election are 404 RouterNotFound', async () => {
  for (const [method, path] of [
    ['GET', '/v1/nothing'],
    ['POST', `/v1/election?token=${w.token}&namespace=&id=x`],
    ['POST', `/v1/election/heartbeat?token=${w.token}`],
  ]) {
    const res = await fetch(`${w.base}${path}`, { method })
    assert.equal(res.status, 404)
    assert.equal(((await res.json()) as { errorCode: string }).errorCode, 'RouterNotFound')
  }
})

interface Capture {
  method: string
  url: string
  headers: Record<string, string>
  body_text: string
  decoded: string | null
}

test("the Python client's captured traffic, forwarded with the token, is answered 200", async () => {
  const file = new URL('../fixtures/dataflux-func-datakit-client-captures.json', import.meta.url)
  const captures = JSON.parse(fs.readFileSync(file, 'utf8')) as Capture[]
  const statuses: number[] = []
  for (const c of captures) {
    const sep = c.url.includes('?') ? '&' : '?'
    const headers = { ...c.headers }
    delete headers['Content-Length']
    const text = Buffer.from(c.body_text)
    const body = c.decoded === 'gzip' ? zlib.gzipSync(text) : c.method === 'GET' ? null : text
    const res = await fetch(`${w.base}${c.url}${sep}token=${w.token}`, {
      method: c.method,
      headers,
      body,
    })
    statuses.push(res.status)
  }
  assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200])
  const { body } = await query(w, [{ query: 'M::M1', time_range: [1577808000000, 1577808002000] }])
  assert.deepEqual(body.content[0].series[0].values, [
    [1577808001000, 'X', null, 'A', null, null, null, null, null],
    [1577808000000, 'X', 'Y', 'A', 42, 4.2, true, false, ''],
  ])
})

test('a failed query keeps the shape the Python client indexes: content[0].series', async () => {
  // The client reads content[0].series before success; the agent hands this on with 200.
  const { status, body } = await query(w, [{ query: 'M::cpu:(avg(x)' }], { mask_visible: true })
  assert.equal(status, 400)
  assert.deepEqual(
    { content: body.content, errorCode: body.errorCode, success: body.success },
    { content: [{ series: [] }], errorCode: 'QueryInvalid', success: false },
  )
})
