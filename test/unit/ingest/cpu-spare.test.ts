/**
 * Spare CPU over a window: the machine's idle time, capped by what the process's budget leaves
 * beside its own use; the whole budget until a first window has passed; cgroup quotas read
 * from v2 `cpu.max` or v1's quota and period; the machine's idle time from /proc/stat's `cpu`
 * line, as `os.cpus()` counts it.
 */
import assert from 'node:assert/strict'
import os from 'node:os'
import { test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import {
  cgroupCores,
  CpuSpare,
  machineIdleMs,
  type CpuReading,
} from '../../../src/ingest/cpu-spare.js'

/** Readings that advance by `idle` and `own` cores' worth of the real time since the last. */
function clock(rate: { idle: number; own: number }) {
  let at = performance.now()
  const r: CpuReading = { idleMs: 0, processMs: 0 }
  return () => {
    const now = performance.now()
    r.idleMs += (now - at) * rate.idle
    r.processMs += (now - at) * rate.own
    at = now
    return { ...r }
  }
}

const near = (a: number, b: number) => assert.ok(Math.abs(a - b) < 0.05, `${a} is not ${b}`)

test('the whole budget until a first window has passed', () => {
  const s = new CpuSpare(50, 2, clock({ idle: 0, own: 2 }))
  assert.equal(s.cores(), 2)
})

test('spare is the idle time of the machine, at most what the budget leaves the process', async () => {
  const rate = { idle: 1.5, own: 0.2 }
  const s = new CpuSpare(50, 2, clock(rate))
  await sleep(60)
  near(s.cores(), 1.5)
  // The process uses most of its budget: the machine's idle cores are not its to take.
  Object.assign(rate, { idle: 6, own: 1.7 })
  await sleep(60)
  near(s.cores(), 0.3)
  // A fully busy machine: nothing spare, however little the process uses itself.
  Object.assign(rate, { idle: 0, own: 0.6 })
  await sleep(60)
  near(s.cores(), 0)
})

test('cgroup quotas: v2 cpu.max, v1 quota and period, none', () => {
  const files = (m: Record<string, string>) => (f: string) => m[f] ?? ''
  assert.equal(cgroupCores(files({ '/sys/fs/cgroup/cpu.max': '150000 100000\n' })), 1.5)
  assert.equal(cgroupCores(files({ '/sys/fs/cgroup/cpu.max': 'max 100000\n' })), null)
  const v1 = {
    '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': '200000\n',
    '/sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000\n',
  }
  assert.equal(cgroupCores(files(v1)), 2)
  const unlimited = { ...v1, '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': '-1\n' }
  assert.equal(cgroupCores(files(unlimited)), null)
  assert.equal(cgroupCores(files({})), null)
})

test("the machine's idle time is /proc/stat's fourth column in ms, os.cpus() without the file", () => {
  const head = 'cpu  3780319 312 536556 2985487 36960 0 32015 57842 0 0\ncpu0 1890159 15'
  assert.equal(
    machineIdleMs(() => head),
    29854870,
  )
  const fromCpus = os.cpus().reduce((n, c) => n + c.times.idle, 0)
  assert.ok(Math.abs(machineIdleMs(() => '') - fromCpus) < 1000)
  // The real file agrees with os.cpus() to a few ticks.
  assert.ok(Math.abs(machineIdleMs() - fromCpus) < 1000, `${machineIdleMs()} ${fromCpus}`)
})
