/** Input files: the reference format, validated with file:key messages; which inputs run. */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { loadConfig } from '../../../src/config/load.js'
import { INPUT_KINDS } from '../../../src/inputs/kinds.js'
import { planInputs } from '../../../src/inputs/plan.js'
import { Scheduler } from '../../../src/inputs/scheduler.js'
import { confFiles } from '../../../src/inputs/conf/load.js'

function dir(files: Record<string, string>): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-inputs-'))
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(d, name)), { recursive: true })
    fs.writeFileSync(path.join(d, name), text)
  }
  return d
}

const names = (d: string, env: NodeJS.ProcessEnv = {}) =>
  planInputs(loadConfig(path.join(d, 'ferry.conf'), env), INPUT_KINDS).map((c) => [
    c.kind.name,
    c.conf.interval,
    c.conf.tags,
  ])

test('an input file in the reference format configures instances', () => {
  const d = dir({
    'ferry.conf': '[agent]\ndefault_enabled_inputs = ["mem"]\n',
    'host/cpu.conf':
      '[[inputs.cpu]]\ninterval = "5s"\npercpu = true\n[inputs.cpu.tags]\nrack = "r1"\n',
  })
  assert.deepEqual(names(d), [
    ['cpu', 5000, { rack: 'r1' }],
    ['mem', 10000, {}],
  ])
})

test('every problem of every input file is reported as file:key: message', () => {
  const d = dir({
    'ferry.conf': '[agent]\ndefault_enabled_inputs = ["cpu", "gpu"]\n',
    'a.conf': '[[inputs.cpu]]\nintervl = "5s"\n\n[[inputs.mem]]\ninterval = 5\n',
    'b.conf': '[[inputs.nosuch]]\n',
  })
  const f = (n: string) => path.join(d, n)
  assert.throws(
    () => names(d),
    (e: Error) => {
      assert.equal(
        e.message,
        [
          `${f('a.conf')}:inputs.cpu.intervl: unknown key`,
          `${f('a.conf')}:inputs.mem.interval: expected a duration like "30s"`,
          `${f('b.conf')}:inputs.nosuch: unknown input`,
          `${f('ferry.conf')}:agent.default_enabled_inputs: unknown input "gpu"`,
        ].join('\n'),
      )
      return true
    },
  )
})

test('container mode runs no default input unless ENV_DEFAULT_ENABLED_INPUTS names some', () => {
  const d = dir({})
  const container = { FERRY_CONTAINER: '1' }
  assert.deepEqual(names(d, container), [])
  assert.deepEqual(names(d, { ...container, ENV_DEFAULT_ENABLED_INPUTS: 'cpu,mem' }), [
    ['cpu', 10000, {}],
    ['mem', 10000, {}],
  ])
  // Host mode (a file): the reference's host inputs.
  fs.writeFileSync(path.join(d, 'ferry.conf'), '')
  assert.deepEqual(
    names(d).map((n) => n[0]),
    ['cpu', 'disk', 'diskio', 'mem', 'swap', 'system', 'hostobject', 'net', 'host_processes'],
  )
})

test('the scheduler jitters the first run, keeps the grid and never overlaps a run', async () => {
  const s = new Scheduler(1000, () => 0.05)
  const starts: number[] = []
  let running = 0
  let overlapped = false
  const t0 = Date.now()
  s.add({
    interval: 40,
    run: async () => {
      overlapped ||= running > 0
      running++
      starts.push(Date.now() - t0)
      await new Promise((r) => setTimeout(r, 50))
      running--
    },
  })
  await new Promise((r) => setTimeout(r, 230))
  await s.stop()
  await s.stop()
  assert.equal(overlapped, false)
  // First at 2 ms (5% of 40), well before one interval even when the machine is busy; each run
  // takes 50 ms, so every other 40 ms tick is skipped.
  assert.ok(starts[0] < 40, `first run at ${starts[0]}ms`)
  for (let i = 1; i < starts.length; i++) assert.ok(starts[i] - starts[i - 1] >= 50)
})

test('input files are looked for two levels deep at most, and unreadable folders are passed over', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-confs-'))
  const put = (rel: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true })
    fs.writeFileSync(path.join(dir, rel), '')
  }
  for (const f of [
    'a.conf',
    'cpu/cpu.conf',
    'x/y/deep.conf',
    'x/y/z/too-deep.conf',
    'pipeline/p.conf',
  ])
    put(f)
  fs.mkdirSync(path.join(dir, 'closed'), { mode: 0o000 })
  const found = confFiles(dir, path.join(dir, 'ferry.conf')).map((f) => path.relative(dir, f))
  assert.deepEqual(found, ['a.conf', 'cpu/cpu.conf', 'x/y/deep.conf'])
})
