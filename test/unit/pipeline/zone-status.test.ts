/** Script zones in every form the reference accepts, and the status mapping after a script. */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { PipelineEngine } from '../../../src/pipeline/engine.js'
import { scriptZone } from '../../../src/pipeline/time/zone.js'
import { kv, runPpl, testEngine } from '../../helpers/pipeline.js'

let e: PipelineEngine
before(async () => {
  e = await testEngine()
})
after(() => e.dispose())

function run(source: string, message: string) {
  const r = runPpl(e, 's', source, [message])
  assert.equal(r.stats.errors, 0, String(r.stats.firstError))
  return { fields: kv(r.points[0]), time: r.points[0].time }
}

test('zones: offsets map to the reference zones, other forms are fixed offsets or names', () => {
  assert.equal(scriptZone('+0'), 'Europe/London')
  assert.equal(scriptZone('+8'), 'Asia/Shanghai')
  assert.equal(scriptZone('+08'), 'Asia/Shanghai')
  assert.equal(scriptZone('-5'), 'America/New_York')
  assert.equal(scriptZone('+5:30'), 'Asia/Kolkata')
  assert.equal(scriptZone('-0530'), '-0530')
  assert.equal(scriptZone('+15'), null)
  assert.equal(scriptZone('UTC+8'), 'UTC+8')
  assert.equal(scriptZone('Asia/Tokyo'), 'Asia/Tokyo')
  assert.equal(scriptZone('CST'), 'CST')
  assert.equal(scriptZone('Nowhere/Atlantis'), null)
})

test('default_time: every zone form gives the instant the reference gives', () => {
  const src = (tz: string) => `grok(_, "%{TIMESTAMP_ISO8601:time}")\ndefault_time(time, "${tz}")`
  const at = (tz: string) => run(src(tz), '2023-01-10 12:00:00').time
  const utcNoon = 1673352000n * 1_000_000_000n
  assert.equal(at('+0'), utcNoon) // Europe/London is UTC+0 in January
  assert.equal(at('UTC'), utcNoon)
  assert.equal(at('+8'), utcNoon - 8n * 3600n * 1_000_000_000n)
  assert.equal(at('UTC+8'), utcNoon - 8n * 3600n * 1_000_000_000n)
  assert.equal(at('CST'), utcNoon - 8n * 3600n * 1_000_000_000n)
  assert.equal(at('Asia/Tokyo'), utcNoon - 9n * 3600n * 1_000_000_000n)
  assert.equal(at('-0530'), utcNoon + 330n * 60n * 1_000_000_000n)
  // An unknown zone leaves the point as it was: the time key stays, the time is unchanged.
  const bad = run(src('Nowhere/Atlantis'), '2023-01-10 12:00:00')
  assert.equal(bad.time, 1_000_000_000n)
  assert.equal(bad.fields.time, '2023-01-10 12:00:00')
})

test('status: mapped as the reference does after every logging script', () => {
  const status = (s: string) => run(`add_key(status, "${s}")`, 'x').fields.status
  assert.equal(status('ok'), 'OK')
  assert.equal(status('o'), 'OK')
  assert.equal(status('S'), 'OK')
  assert.equal(status('W'), 'warning')
  assert.equal(status('Trace'), 'debug')
  assert.equal(status('LOG'), 'log')
  assert.equal(status(''), 'info')
  assert.equal(run('add_key(n, 1)', 'x').fields.status, 'info')
  assert.equal(run('add_key(status, 3)', 'x').fields.status, 'info')
  const off = run('setopt(status_mapping=false)\nadd_key(status, "w")', 'x').fields
  assert.equal(off.status, 'w')
  assert.equal('status' in run('setopt(status_mapping=false)', 'x').fields, false)
})
