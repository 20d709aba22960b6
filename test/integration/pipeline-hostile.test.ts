/**
 * Hostile scripts and lines against the real agent (real workers and sandboxes): a
 * catastrophic grok through /v1/pipeline/debug answers at once, a crafted nginx line no
 * longer stalls other writes, create_point amplification is refused, and endless debug
 * scripts cannot hold every decode worker.
 */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { DebugContent } from '../../src/pipeline/debug/types.js'
import { startAgent, type AgentProcess } from '../helpers/agent-process.js'

interface DebugAnswer {
  content: DebugContent
  error_code?: string
  message?: string
}

const SHIPPED = new URL('../../conf.d/pipeline', import.meta.url).pathname
const b64 = (s: string) => Buffer.from(s).toString('base64')
let agent: AgentProcess

before(async () => {
  agent = await startAgent({
    ENV_PIPELINE_DIR: SHIPPED,
    ENV_PIPELINE_TIMEZONE: 'UTC',
    ENV_DECODE_WORKERS: '2',
    ENV_PIPELINE_DEBUG_CONCURRENCY: '1',
  })
  // A worker loads its debug runner and script engine with its first debug request, a cost of
  // once per worker and not of any pattern: the timed requests below come after it (the pool
  // hands a task to its first idle worker, so they run on the warmed one).
  await debug('x = 1', 'a')
})
after(() => agent.stop())

async function debug(script: string, data: string, lang = 'p', signal?: AbortSignal) {
  const started = performance.now()
  const res = await fetch(`${agent.url}/v1/pipeline/debug`, {
    method: 'POST',
    signal,
    body: JSON.stringify({
      pipeline: { logging: { [`s.${lang}`]: b64(script) } },
      script_name: 's',
      category: 'logging',
      data: [b64(data)],
    }),
  })
  return {
    status: res.status,
    body: (await res.json()) as DebugAnswer,
    ms: performance.now() - started,
  }
}

async function timedWrite(url: string, body: string) {
  const started = performance.now()
  const res = await fetch(url, { method: 'POST', body })
  return { status: res.status, text: await res.text(), ms: performance.now() - started }
}

test('debug: grok(_, "^(a+)+$") on 30 characters answers well within the limit', async () => {
  const r = await debug('ok = grok(_, "^(a+)+$")\nadd_key(matched, ok)', 'a'.repeat(30) + 'b')
  assert.equal(r.status, 200)
  assert.ok(r.ms < 2000, `${r.ms} ms`)
  assert.equal(r.body.content.plresults[0].run_error, null)
  assert.equal(r.body.content.plresults[0].point.fields.matched, false)
})

test('debug: create_point amplification is refused with a clear error', async () => {
  const r = await debug('for (;;) create_point("x", {}, { n: 1 })', 'a', 'js')
  assert.equal(r.status, 200)
  assert.ok(r.ms < 10_000, `${r.ms} ms`)
  const res = r.body.content.plresults[0]
  assert.equal(
    res.run_error?.error,
    'create_point: more than 10000 points in one run ([pipeline] max_created_points)',
  )
  assert.equal(res.create_point?.length, 10_000)
})

test('debug: a crafted pattern is a compile error with its position', async () => {
  const r = await debug('x = 1\ngrok(_, "(\\\\d)\\\\1")', 'a')
  assert.equal(r.status, 200)
  assert.deepEqual(r.body.content.pl_errors, [
    {
      pos_chain: [{ file: 's.p', ln: 2, col: 15, pos: 20 }],
      error:
        'grok: backreference `\\1` is not supported: patterns use RE2 syntax, which matches in linear time (at offset 4)',
    },
  ])
})

test('write: crafted nginx lines do not stall other writes', async () => {
  const crafted =
    '2021/01/01 00:00:00 [error] ' +
    ', client: a, server: b, request: "a HTTP/1'.repeat(230).slice(0, 10_000)
  const line = `nginx message="${crafted.replace(/"/g, '\\"')}"`
  const hostile = [1, 2].map(() =>
    timedWrite(`${agent.url}/v1/write/logging?source=nginx&dry`, line),
  )
  const other = await timedWrite(`${agent.url}/v1/write/logging?dry`, 'app message="hello"')
  assert.equal(other.status, 200, other.text)
  assert.ok(other.ms < 1000, `other write took ${other.ms} ms`)
  for (const r of await Promise.all(hostile)) {
    assert.equal(r.status, 200, r.text)
    assert.ok(r.ms < 2000, `crafted write took ${r.ms} ms`)
  }
})

test('debug: two endless scripts at once: one runs, one gets 429, writes still answer', async () => {
  const stop = new AbortController()
  const endless = [1, 2].map(() => debug('for (;;) {}', 'a', 'js', stop.signal).catch(() => null))
  // The refused one answers at once; the other spins on a worker until it is abandoned.
  const refused = (await Promise.race(endless))!
  assert.equal(refused.status, 429)
  assert.equal(refused.body.error_code, 'agent.reachMaxAPILimit')
  assert.equal(
    refused.body.message,
    '1 pipeline debug request(s) already running ([pipeline] debug_concurrency)',
  )
  assert.ok(refused.ms < 1000, `refusal took ${refused.ms} ms`)
  const w = await timedWrite(`${agent.url}/v1/write/logging?dry`, 'app message="hi"')
  assert.equal(w.status, 200, w.text)
  assert.ok(w.ms < 1000, `write took ${w.ms} ms`)
  stop.abort()
  await Promise.all(endless)
})
