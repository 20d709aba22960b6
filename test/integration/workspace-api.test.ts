/**
 * The workspace service over real sockets and a real database: every Open API route with a
 * good key, a bad key, no key, a wrong method and bad parameters; the envelope on every answer;
 * ingest (formats, compression, token, malformed bodies, duplicates) and object labels.
 */
import assert from 'node:assert/strict'
import zlib from 'node:zlib'
import { after, before, describe, test } from 'node:test'
import { compress as zstd } from '@mongodb-js/zstd'
import { encodePoint } from '../../src/decode/codec/protobuf.js'
import { PbWriter } from '../../src/decode/codec/pb-writer.js'
import { Kind } from '../../src/shared/point.js'
import { query, startWorkspace, writeLp, type TestWorkspace } from '../helpers/workspace.js'

let w: TestWorkspace
let dashboardId = ''

before(async () => {
  w = await startWorkspace()
  const now = BigInt(Date.now()) * 1_000_000n
  const objects = [
    `HOST,name=web-1 os="linux",cpu_cores=4i ${now}`,
    `HOST,name=db-1 os="linux",cpu_cores=16i ${now}`,
    `HOST,name=mac-1 os="darwin",cpu_cores=8i ${now}`,
    `host_processes,name=web-1_1,host=web-1 process_name="nginx",cmdline="nginx -g" ${now}`,
    `host_processes,name=db-1_2,host=db-1 process_name="postgres",cmdline="postgres -D /d" ${now}`,
  ].join('\n')
  assert.equal((await writeLp(w, 'object', objects)).status, 200)
})
after(() => w.stop())

async function call(method: string, path: string, key: string | null, body?: unknown) {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' }
  if (key !== null) headers['DF-API-KEY'] = key
  const res = await fetch(`${w.base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const env = (await res.json()) as Record<string, unknown>
  assert.deepEqual(
    Object.keys(env).filter((k) => k !== 'pageInfo'),
    ['code', 'content', 'errorCode', 'message', 'success', 'traceId'],
  )
  assert.equal(env.code, res.status)
  assert.match(String(env.traceId), /^[0-9a-f]{32}$/)
  assert.equal(res.headers.get('x-trace-id'), env.traceId)
  return { status: res.status, env, allow: res.headers.get('allow') }
}

function assertError(r: Awaited<ReturnType<typeof call>>, status: number, code: string): void {
  assert.equal(r.status, status, JSON.stringify(r.env))
  assert.equal(r.env.errorCode, code)
  assert.equal(r.env.success, false)
  assert.equal(r.env.content, null)
  assert.ok(String(r.env.message).length > 0)
}

interface RouteCase {
  method: 'GET' | 'POST'
  path: () => string
  body?: unknown
  bad: { path?: () => string; body?: unknown; status: number; code: string }
  /** A method the route refuses, and what `Allow` then says (default: the other of GET/POST). */
  wrong?: { method: string; allow: string }
}

const ROUTES: Record<string, RouteCase> = {
  validate: {
    method: 'GET',
    path: () => '/api/v1/validate',
    bad: { path: () => '/api/v1/validate/x', status: 400, code: 'RouterNotFound' },
  },
  'dashboard create': {
    method: 'POST',
    path: () => '/api/v1/dashboard/create',
    body: {
      name: 'Hosts',
      desc: 'host overview',
      tagNames: ['infra'],
      extend: { a: 1 },
      templateInfo: { main: { vars: [] } },
    },
    bad: { body: { desc: 'no name' }, status: 400, code: 'InvalidParameter' },
  },
  'dashboard list': {
    method: 'GET',
    path: () => '/api/v1/dashboard/list?pageIndex=1&pageSize=5&search=host',
    bad: { path: () => '/api/v1/dashboard/list?pageSize=0', status: 400, code: 'InvalidParameter' },
  },
  'dashboard get': {
    method: 'GET',
    path: () => `/api/v1/dashboard/${dashboardId}/get`,
    bad: {
      path: () => '/api/v1/dashboard/dsbd_00000000000000000000000000000000/get',
      status: 404,
      code: 'ObjectNotFound',
    },
  },
  'dashboard modify': {
    method: 'POST',
    path: () => `/api/v1/dashboard/${dashboardId}/modify`,
    body: { desc: 'changed' },
    bad: { body: { tagNames: 'not-a-list' }, status: 400, code: 'InvalidParameter' },
  },
  'host list': {
    method: 'GET',
    path: () => '/api/v1/object/host/list?os=linux&pageSize=1',
    bad: {
      path: () => '/api/v1/object/host/list?nosuchfield=1',
      status: 400,
      code: 'InvalidParameter',
    },
  },
  'process list': {
    method: 'GET',
    path: () => '/api/v1/object/process/list?search=postgres',
    bad: {
      path: () => '/api/v1/object/process/list?pageIndex=x',
      status: 400,
      code: 'InvalidParameter',
    },
  },
  'dashboard delete': {
    method: 'POST',
    // The Terraform provider deletes with a GET, so both are answered.
    wrong: { method: 'PUT', allow: 'POST, GET' },
    path: () => `/api/v1/dashboard/${dashboardId}/delete`,
    bad: {
      path: () => '/api/v1/dashboard/dsbd_00000000000000000000000000000000/delete',
      status: 404,
      code: 'ObjectNotFound',
    },
  },
}

describe('Open API routes', () => {
  for (const [name, r] of Object.entries(ROUTES)) {
    test(`${name}: good key`, async () => {
      const res = await call(r.method, r.path(), w.key, r.body)
      assert.equal(res.status, 200, JSON.stringify(res.env))
      assert.equal(res.env.success, true)
      assert.equal(res.env.errorCode, '')
      assert.equal(res.env.message, '')
      if (name === 'dashboard create') {
        const d = res.env.content as {
          uuid: string
          name: string
          tagNames: string[]
          creator: string
        }
        assert.match(d.uuid, /^dsbd_[0-9a-f]{32}$/)
        const [key] = await w.service.deps!.accounts.listKeys('test')
        assert.deepEqual([d.name, d.tagNames, d.creator], ['Hosts', ['infra'], key.id])
        dashboardId = d.uuid
      }
      if (name === 'dashboard list') {
        assert.deepEqual(res.env.pageInfo, { count: 1, pageIndex: 1, pageSize: 5, totalCount: 1 })
        assert.equal((res.env.content as { uuid: string }[])[0].uuid, dashboardId)
      }
      if (name === 'dashboard modify') {
        const d = res.env.content as { desc: string; name: string; updator: string }
        assert.deepEqual([d.desc, d.name], ['changed', 'Hosts'])
      }
      if (name === 'host list') {
        assert.deepEqual(res.env.pageInfo, { count: 1, pageIndex: 1, pageSize: 1, totalCount: 2 })
        const [h] = res.env.content as {
          name: string
          os: string
          cpu_cores: number
          labels: string[]
        }[]
        assert.deepEqual([h.name, h.os, h.cpu_cores, h.labels], ['db-1', 'linux', 16, []])
      }
      if (name === 'process list') {
        const list = res.env.content as { name: string; host: string }[]
        assert.deepEqual(
          list.map((p) => [p.name, p.host]),
          [['db-1_2', 'db-1']],
        )
      }
      if (name === 'validate')
        assert.equal((res.env.content as { workspaceName: string }).workspaceName, 'test')
    })
    test(`${name}: bad key`, async () =>
      assertError(await call(r.method, r.path(), 'not-a-key', r.body), 403, 'InvalidApiKey'))
    test(`${name}: no key`, async () =>
      assertError(await call(r.method, r.path(), null, r.body), 403, 'InvalidApiKey'))
    test(`${name}: wrong method`, async () => {
      const method = r.wrong?.method ?? (r.method === 'GET' ? 'POST' : 'GET')
      const res = await call(method, r.path(), w.key, method === 'GET' ? undefined : {})
      assertError(res, 405, 'MethodNotAllowed')
      assert.equal(res.allow, r.wrong?.allow ?? r.method)
    })
    test(`${name}: bad parameters`, async () => {
      assertError(
        await call(r.method, (r.bad.path ?? r.path)(), w.key, r.bad.body ?? r.body),
        r.bad.status,
        r.bad.code,
      )
    })
  }

  test('the deleted dashboard is gone, the plural alias works, unknown routes are RouterNotFound', async () => {
    assertError(
      await call('GET', `/api/v1/dashboards/${dashboardId}/get`, w.key),
      404,
      'ObjectNotFound',
    )
    const list = await call('GET', '/api/v1/dashboards/list', w.key)
    assert.deepEqual(list.env.pageInfo, { count: 0, pageIndex: 1, pageSize: 10, totalCount: 0 })
    assertError(await call('GET', '/api/v1/nothing/here', w.key), 400, 'RouterNotFound')
    assertError(await call('PUT', '/v9/x', null), 400, 'RouterNotFound')
  })

  test('a revoked key is refused', async () => {
    const accounts = w.service.deps!.accounts
    const k = await accounts.createKey('test', 'temp')
    assert.equal((await call('GET', '/api/v1/validate', k.key)).status, 200)
    await accounts.revokeKey(k.info.id)
    assertError(await call('GET', '/api/v1/validate', k.key), 403, 'InvalidApiKey')
  })
})

describe('ingest', () => {
  const count = async (measurement: string) => {
    const r = await query(w, [{ query: `M::${measurement}:(count(*))` }])
    return (r.body.content[0].series[0]?.values[0]?.[1] as number | undefined) ?? 0
  }

  test('protobuf, gzip and zstd bodies are stored; a repeated X-Pkg-Id is stored once', async () => {
    const now = BigInt(Date.now()) * 1_000_000n
    // Two bodies of other points (a body with the same points is a duplicate by content).
    const body = (at: bigint) => {
      const pb = new PbWriter()
      for (let i = 0; i < 3; i++)
        encodePoint(pb, {
          name: 'pbm',
          tags: [{ key: 'host', value: `h${i}` }],
          fields: [{ key: 'v', kind: Kind.FLOAT, value: i + 0.5 }],
          time: at,
          warns: null,
        })
      return pb.finish()
    }
    const [first, second] = [body(now), body(now + 1n)]
    const url = `${w.base}/v1/write/metric?token=${w.token}`
    const headers = { 'Content-Type': 'application/protobuf; proto=com.guance.Point' }
    for (const [enc, body, pkg] of [
      ['gzip', zlib.gzipSync(first), 'pkg-a'],
      ['zstd', await zstd(Buffer.from(second), 3), 'pkg-b'],
      ['gzip', zlib.gzipSync(first), 'pkg-a'],
    ] as const) {
      const res = await fetch(url, {
        method: 'POST',
        body,
        headers: { ...headers, 'Content-Encoding': enc, 'X-Pkg-Id': pkg },
      })
      assert.equal(res.status, 200, await res.text())
    }
    assert.equal(await count('pbm'), 6)
  })

  test('bad token 403, malformed body 400 with nothing stored, unknown category 400', async () => {
    const bad = await fetch(
      `${w.base}/v1/write/metric?token=tkn_00000000000000000000000000000000`,
      { method: 'POST', body: 'm v=1' },
    )
    assert.equal(bad.status, 403)
    assert.equal(((await bad.json()) as { errorCode: string }).errorCode, 'InvalidToken')
    const none = await fetch(`${w.base}/v1/write/metric`, { method: 'POST', body: 'm v=1' })
    assert.equal(none.status, 403)
    const res = await writeLp(w, 'metric', 'half v=1\nhalf,broken v=\n')
    assert.equal(res.status, 400)
    const env = (await res.json()) as { errorCode: string; message: string }
    assert.equal(env.errorCode, 'InvalidLinePoint')
    assert.match(env.message, /unable to parse 'half,broken v='/)
    assert.equal(await count('half'), 0)
    const gz = await fetch(`${w.base}/v1/write/metric?token=${w.token}`, {
      method: 'POST',
      body: 'not gzip',
      headers: { 'Content-Encoding': 'gzip' },
    })
    assert.equal(gz.status, 400)
    assert.equal((await writeLp(w, 'nope', 'm v=1')).status, 400)
  })

  test('types widen instead of refusing a value', async () => {
    assert.equal((await writeLp(w, 'metric', 'wide v=1i\nwide v=2.5\nwide v="text"')).status, 200)
    const r = await query(w, [{ query: 'M::wide:(v) ORDER BY time ASC' }])
    assert.deepEqual(r.body.content[0].series[0].values.map((v) => v[1]).sort(), [
      '1',
      '2.5',
      'text',
    ])
  })

  test('object labels: create, show on the host list, delete', async () => {
    const url = `${w.base}/v1/object/labels?token=${w.token}`
    const body = {
      object_class: 'HOST',
      object_name: 'web-1',
      key: 'name',
      value: 'web-1',
      labels: ['prod', 'eu'],
    }
    const created = await fetch(url, { method: 'POST', body: JSON.stringify(body) })
    assert.equal(created.status, 200)
    assert.match(
      ((await created.json()) as { content: { _id: string } }).content._id,
      /^lbl_[0-9a-f]{32}$/,
    )
    const hosts = await call('GET', '/api/v1/object/host/list?search=web', w.key)
    assert.deepEqual((hosts.env.content as { labels: string[] }[])[0].labels, ['prod', 'eu'])
    const del = await fetch(url, { method: 'DELETE', body: JSON.stringify(body) })
    assert.deepEqual(((await del.json()) as { content: unknown }).content, {
      msg: 'delete success',
    })
    assert.equal((await fetch(url, { method: 'DELETE', body: JSON.stringify(body) })).status, 404)
    assert.equal(
      (await fetch(url, { method: 'POST', body: '{"object_class":"HOST"}' })).status,
      400,
    )
  })

  test('ntp', async () => {
    const r = (await (await fetch(`${w.base}/v1/ntp`)).json()) as { timestamp_sec: number }
    assert.ok(Math.abs(r.timestamp_sec - Date.now() / 1000) < 5)
  })

  test('a bad query is 400 with the position; echo_explain returns the SQL', async () => {
    const r = await query(w, [{ query: 'M::cpu:(avg(x)' }])
    assert.equal(r.status, 400)
    assert.equal(r.body.errorCode, 'QueryInvalid')
    assert.deepEqual(r.body.content, [{ series: [] }])
    assert.equal(
      r.body.message,
      'queries[0]: DQL parse error at position 14: expected ")", got end of query',
    )
    const ok = await query(w, [{ query: 'M::pbm:(v) LIMIT 1' }], { echo_explain: true })
    assert.match(
      ok.body.content[0].raw_query ?? '',
      /^SELECT \* FROM \(SELECT "time" AS "time", "v" AS "v0" FROM "w_[0-9a-f]{32}"\."M::pbm"/,
    )
    const opt = await query(w, [{ query: 'M::pbm', time_range: ['x'] }])
    assert.equal(opt.status, 400)
    assert.equal(
      opt.body.message,
      'queries[0].time_range: expected [start_ms] or [start_ms, end_ms]',
    )
  })
})
