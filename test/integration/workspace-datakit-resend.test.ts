/**
 * DataKit's re-sends against the workspace (issue 31), replayed from its wire shape
 * (test/fixtures/datakit-resend.json): a body re-sent under a new id is stored once; a
 * different body under a reused id is stored and counted; categories never collide; and the
 * usage report DataKit posts a minute after start is answered.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import zlib from 'node:zlib'
import { after, before, test } from 'node:test'
import { encodePoint } from '../../src/decode/codec/protobuf.js'
import { PbWriter } from '../../src/decode/codec/pb-writer.js'
import { parseLines } from '../../src/decode/lp/parse.js'
import { query, startWorkspace, type TestWorkspace } from '../helpers/workspace.js'

const FIXTURE = JSON.parse(
  fs.readFileSync(new URL('../fixtures/datakit-resend.json', import.meta.url), 'utf8'),
) as {
  headers: Record<string, string>
  bodies: Record<string, string>
  ids: Record<string, string>
  usageTrace: Record<string, unknown>
}

let w: TestWorkspace
before(async () => {
  w = await startWorkspace()
})
after(() => w.stop())

const T0 = BigInt(Date.now() - 60_000) * 1_000_000n

/** The body as DataKit sends it: PBPoints, gzipped. */
function pbBody(template: string): { body: Buffer; points: number } {
  const text = template.replaceAll('{t0}', String(T0)).replaceAll('{t1}', String(T0 + 1n))
  const { points } = parseLines(text, Buffer.from(text))
  const pw = new PbWriter()
  for (const p of points) encodePoint(pw, p)
  return { body: zlib.gzipSync(pw.finish()), points: points.length }
}

async function send(category: string, body: string, pkgId: string, extra = {}) {
  const { body: bytes, points } = pbBody(FIXTURE.bodies[body])
  const res = await fetch(`${w.base}/v1/write/${category}?token=${w.token}`, {
    method: 'POST',
    headers: { ...FIXTURE.headers, 'X-Points': String(points), 'X-Pkg-Id': pkgId, ...extra },
    body: bytes,
  })
  assert.equal(res.status, 200)
  return ((await res.json()) as { content: { stored: number; duplicate: boolean } }).content
}

async function countOf(q: string): Promise<number> {
  const { body } = await query(w, [{ query: q, time_range: [Date.now() - 3_600_000, Date.now()] }])
  const values = body.content[0].series?.[0]?.values ?? []
  return values.length ? Number(values[0][1]) : 0
}

async function metric(name: string, labels: string): Promise<number> {
  const text = await (await fetch(`${w.base}/metrics`)).text()
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`))
  return line ? Number(line.split(' ').pop()) : 0
}

test('a body re-sent from the fail cache under a new id is stored once', async () => {
  assert.deepEqual(await send('metric', 'cpu', FIXTURE.ids.first), { stored: 3, duplicate: false })
  const again = await send('metric', 'cpu', FIXTURE.ids.resent, { 'X-Fail-Cache-Retry': '1' })
  assert.deepEqual(again, { stored: 0, duplicate: true })
  assert.equal(await countOf('M::cpu:(count(usage_idle))'), 3)
  const labels = 'workspace="test",category="metric"'
  assert.equal(await metric('ferry_workspace_duplicate_content_total', labels), 1)
  assert.equal(await metric('ferry_workspace_duplicate_packages_total', labels), 0)
})

test('a different body under a reused id is stored and counted; categories never collide', async () => {
  const id = FIXTURE.ids.containerA
  assert.equal(id, FIXTURE.ids.containerB)
  assert.deepEqual(await send('logging', 'syslog', id), { stored: 2, duplicate: false })
  assert.deepEqual(await send('metric', 'mem', id), { stored: 1, duplicate: false })
  // The same points as a logging body are another body than the metric one.
  assert.deepEqual(await send('logging', 'mem', 'dk_other'), { stored: 1, duplicate: false })
  assert.equal(await countOf('M::mem:(count(used_percent))'), 1)
  assert.equal(await countOf('L::syslog:(count(message))'), 2)
  assert.equal(await countOf('L::mem:(count(used_percent))'), 1)
  assert.equal(await metric('ferry_workspace_package_id_reused_total', 'workspace="test"'), 1)
  // The same id with the same content again is the duplicate it looks like.
  assert.deepEqual(await send('metric', 'mem', id), { stored: 0, duplicate: true })
})

test('the usage report DataKit posts is answered 200 in the envelope', async () => {
  const res = await fetch(`${w.base}/v1/datakit/usage_trace?token=${w.token}`, {
    method: 'POST',
    headers: { 'User-Agent': FIXTURE.headers['User-Agent'], Referer: 'DataKit' },
    body: JSON.stringify(FIXTURE.usageTrace),
  })
  assert.equal(res.status, 200)
  const body = (await res.json()) as Record<string, unknown>
  assert.deepEqual([body.code, body.success, body.content], [200, true, {}])
  const bad = await fetch(`${w.base}/v1/datakit/usage_trace?token=nope`, {
    method: 'POST',
    body: '{}',
  })
  assert.equal(bad.status, 403)
})
