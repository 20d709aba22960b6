/**
 * A source map zip bomb named by an unauthenticated RUM write: a 3 MB zip whose 24 maps
 * inflate to 120 MiB each is refused within the zip budget, so the write is answered within
 * 3 s and the agent's RSS grows by less than 300 MB; `GET /v1/sourcemap/check` alike. The
 * refusal is counted and logged once per reader, with the zip's name and not its path.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { startAgent } from '../helpers/agent-process.js'
import { zipBomb } from '../helpers/bombs.js'

const MiB = 1 << 20

function rss(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) * 1024
}

/** Runs `call`, sampling the agent's RSS meanwhile into `peak`; answers its time. */
async function measured<T>(pid: number, peak: { rss: number }, call: () => Promise<T>) {
  const sample = () => (peak.rss = Math.max(peak.rss, rss(pid)))
  const sampler = setInterval(sample, 20)
  const started = performance.now()
  try {
    const out = await call()
    return { out, ms: performance.now() - started }
  } finally {
    clearInterval(sampler)
    sample()
  }
}

async function refusals(url: string): Promise<number[]> {
  const metrics = await (await fetch(`${url}/metrics`)).text()
  return [...metrics.matchAll(/^ferry_rum_zip_refused_total (\d+)$/gm)].map((m) => Number(m[1]))
}

test('a zip bomb named by a public RUM write is refused fast, within its memory budget', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-it-'))
  const web = path.join(dataDir, 'rum', 'web')
  fs.mkdirSync(web, { recursive: true })
  const names = Array.from({ length: 24 }, (_, i) => `dist/e${i}.js.map`)
  fs.writeFileSync(path.join(web, 'bomb-prod-1.zip'), zipBomb(names, 120 * MiB))
  const agent = await startAgent({ ENV_DECODE_WORKERS: '1' }, undefined, dataDir)
  try {
    const pid = agent.child.pid as number
    const point = {
      measurement: 'error',
      tags: { app_id: 'bomb', env: 'prod', version: '1', sdk_name: 'df_web_rum_sdk' },
      fields: { error_stack: 'Error: x\n  at @ http://shop/dist/e0.js:1:1', error_message: 'x' },
    }
    const send = (p: object) =>
      fetch(`${agent.url}/v1/write/rum`, { method: 'POST', body: JSON.stringify([p]) })
    // The decode worker's first task pays for its start (seconds when run from source on a
    // loaded machine): a write naming no zip takes it first.
    assert.equal((await send({ ...point, tags: { ...point.tags, app_id: 'warm' } })).status, 200)
    const base = rss(pid)
    const peak = { rss: base }
    const write = await measured(pid, peak, () => send(point))
    assert.equal(write.out.status, 200, await write.out.text())
    assert.ok(write.ms < 3_000, `write answered in ${write.ms} ms`)

    const q = new URLSearchParams({ app_id: 'bomb', env: 'prod', version: '1' })
    q.set('error_stack', point.fields.error_stack)
    // A loaded machine may take longer than the wait to reach the budget: the answer says
    // the zip is still loading, and a later check is answered from the refusal.
    let refused = false
    for (let i = 0; i < 20 && !refused; i++) {
      const check = await measured(pid, peak, () => fetch(`${agent.url}/v1/sourcemap/check?${q}`))
      const answer = (await check.out.json()) as { success: boolean; errorMsg: string }
      assert.ok(check.ms < 3_000, `check answered in ${check.ms} ms`)
      assert.equal(answer.success, false)
      if (answer.errorMsg.includes('still loading')) continue
      assert.match(answer.errorMsg, /^source map zip \[web\/bomb-prod-1\.zip\] refused: inflates/)
      refused = true
    }
    assert.ok(refused, 'the check never met the refusal')

    // One refusal per reader (the decode worker's cache, the check route's), counted when a
    // caller is first given it; later writes naming the zip are answered from the refusal.
    for (let i = 0; i < 20 && !(await refusals(agent.url)).includes(2); i++) {
      const again = await measured(pid, peak, () => send(point))
      assert.equal(again.out.status, 200)
      assert.ok(again.ms < 3_000, `write answered in ${again.ms} ms`)
    }
    assert.deepEqual(await refusals(agent.url), [2])
    const growth = (peak.rss - base) / MiB
    assert.ok(growth < 300, `RSS grew by ${growth} MiB`)
    const logged = agent.logs.filter((l) => l.includes('"event":"zip_refused"'))
    assert.equal(logged.length, 2)
    assert.match(logged[0], /"zip":"web\/bomb-prod-1\.zip"/)
    assert.doesNotMatch(logged.join(''), new RegExp(dataDir))
  } finally {
    await agent.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
})
