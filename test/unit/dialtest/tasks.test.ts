/** POST /v1/dialtesting/debug: TCP, ICMP, WebSocket and multi tasks against loopback servers. */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { after, before, test } from 'node:test'
import { NetGuard } from '../../../src/dialtest/guard.js'
import { runMulti } from '../../../src/dialtest/multi.js'
import { testApp } from '../../helpers/app.js'
import { startDialServers, type DialServers } from '../../helpers/dial-servers.js'

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers, read by path
type Json = Record<string, any>

let s: DialServers
before(async () => (s = await startDialServers()))
after(() => s.close())

async function debug(body: unknown) {
  const { app } = testApp({ env: { ENV_INPUT_DIALTESTING_ENABLE_DEBUG_API: 'true' } })
  const res = await app.request('/v1/dialtesting/debug', {
    method: 'POST',
    body: JSON.stringify(body),
  })
  return (await res.json()) as Json
}

test('TCP: connect, message and reply checks', async () => {
  const task = {
    host: '127.0.0.1',
    port: String(s.tcp),
    message: 'ping',
    success_when: [{ response_time: [{ target: '1s' }], response_message: [{ is: 'ping' }] }],
  }
  const ok = await debug({ task_type: 'tcp', task })
  assert.equal(ok.content.status, 'success')
  assert.equal(ok.content.fields.response_message, 'ping')
  assert.equal(ok.content.fields.dest_ip, '127.0.0.1')
  assert.equal(ok.content.fields.proto, 'tcp')
  const bad = await debug({
    task_type: 'tcp',
    task: { ...task, success_when: [{ response_message: [{ is: 'pong' }] }] },
  })
  assert.equal(bad.content.error_msg, "response message: expect to be `pong', got `ping'")
  const slow = await debug({
    task_type: 'tcp',
    task: { ...task, success_when: [{ response_time: [{ target: '1ns' }] }] },
  })
  assert.match(slow.content.error_msg, /^TCP response time\(.+\) larger equal than 1ns$/)
  const refused = await debug({ task_type: 'tcp', task: { ...task, port: '1' } })
  assert.equal(
    refused.content.error_msg,
    "response message: expect to be `ping', got `';connect ECONNREFUSED 127.0.0.1:1",
  )
})

test('WebSocket: send one message, check the reply', async () => {
  const task = {
    url: `ws://127.0.0.1:${s.ws}/`,
    message: 'hi',
    success_when: [{ response_message: [{ is: 'echo:hi' }] }],
  }
  const ok = await debug({ task_type: 'websocket', task })
  assert.equal(ok.content.status, 'success')
  assert.equal(ok.content.fields.response_message, 'echo:hi')
  assert.equal(ok.content.fields.sent_message, 'hi')
  const bad = await debug({
    task_type: 'websocket',
    task: { ...task, success_when: [{ response_message: [{ contains: 'x' }] }] },
  })
  assert.equal(bad.content.error_msg, "response message: do not contains `x', got `echo:hi'")
})

test('multi: a variable extracted by one step is rendered into the next; secure values hidden', async () => {
  const base = `http://127.0.0.1:${s.http}`
  const step1 = {
    url: `${base}/token`,
    post_script: 'vars["token"] = load_json(response["body"])["token"]',
    success_when: [{ status_code: [{ is: '200' }] }],
  }
  const step2 = {
    url: `${base}/echo`,
    advance_options: { request_options: { headers: { 'X-Token': '{{tok}}' } } },
    success_when: [{ body: [{ contains: '"x-token":"t-123"' }] }],
  }
  const task = {
    name: 'm',
    steps: [
      {
        type: 'http',
        task: JSON.stringify(step1),
        extracted_vars: [{ name: 'tok', field: 'token', secure: true }],
      },
      { type: 'http', task: JSON.stringify(step2) },
    ],
  }
  const r = await debug({ task_type: 'multi', task })
  assert.equal(r.content.status, 'success')
  assert.equal(r.content.fields.last_step, 1)
  const steps = JSON.parse(r.content.fields.steps)
  assert.deepEqual(steps[0].extracted_vars, [{ name: 'tok', field: 'token', secure: true }])
  assert.ok(!r.content.fields.steps.includes('t-123'))
})

test('ICMP to 127.0.0.1', async (t) => {
  try {
    execFileSync('ping', ['-c', '1', '-W', '1', '127.0.0.1'], { stdio: 'ignore' })
  } catch {
    return t.skip('ping is missing or unprivileged ICMP is forbidden here')
  }
  const r = await debug({
    task_type: 'icmp',
    task: {
      host: '127.0.0.1',
      packet_count: 2,
      success_when: [{ packet_loss_percent: [{ op: 'eq', target: 0 }] }],
    },
  })
  assert.equal(r.content.status, 'success')
  assert.equal(r.content.fields.packets_sent, 2)
  assert.equal(r.content.fields.packets_received, 2)
  assert.equal(r.content.fields.packet_loss_percent, 0)
  const bad = await debug({
    task_type: 'icmp',
    task: {
      host: '127.0.0.1',
      packet_count: 1,
      success_when: [{ packets: [{ op: 'gt', target: 5 }] }],
    },
  })
  assert.equal(bad.content.error_msg, 'packets received check failed: 1 is less than target 5')
})

test('multi: a task never outlives its deadline, however long its wait steps', async () => {
  const step = {
    url: `http://127.0.0.1:${s.http}/ok`,
    success_when: [{ status_code: [{ is: '200' }] }],
  }
  const task = {
    name: 'slow',
    steps: [
      { type: 'wait', value: 180 },
      { type: 'http', task: JSON.stringify(step) },
    ],
  }
  const started = Date.now()
  const guard = new NetGuard({ internal: false, cidrs: [] })
  const r = await runMulti(task, new Map(), guard, 'test', started + 300)
  assert.ok(Date.now() - started < 2_000, `took ${Date.now() - started} ms`)
  assert.equal(r.tags.status, 'FAIL')
  assert.equal(r.fields.fail_reason, 'run task failed: the task ran out of time')
  assert.equal(r.fields.last_step, 0)
})
