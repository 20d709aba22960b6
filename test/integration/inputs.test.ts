/**
 * A fresh agent with the embedded workspace and the host inputs on: within 15 s the workspace
 * has this host's HOST object, the agent's own process with its command line, and a CPU series.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, test } from 'node:test'
import { startAgent, type AgentProcess } from '../helpers/agent-process.js'
import { poll } from '../helpers/workspace.js'

let agent: AgentProcess

before(async () => {
  agent = await startAgent({
    ENV_DEFAULT_ENABLED_INPUTS: 'cpu,mem,system,hostobject,host_processes',
    ENV_HOSTNAME: 'inputs-it',
  })
})
after(() => agent.stop())

type Series = { columns: string[]; values: unknown[][] }

async function query(q: string): Promise<Series[]> {
  const res = await fetch(`${agent.url}/v1/query/raw`, {
    method: 'POST',
    body: JSON.stringify({ queries: [{ query: q }] }),
  })
  assert.equal(res.status, 200)
  // Before the first point of a source is stored the workspace answers with an error envelope
  // (content null), which the agent relays as it is: nothing found yet.
  const body = (await res.json()) as { content: { series: Series[] }[] | null }
  return body.content?.[0]?.series ?? []
}

const found = async (q: string) => {
  const s = await query(q)
  return s.length && s[0].values.length ? s : null
}

test('the workspace has the host, the agent process and cpu within 15 s', async () => {
  const host = await poll(() => found('O::HOST:(name, os, num_cpu, mem_total)'), 15_000)
  const cpus = fs.readFileSync('/proc/stat', 'utf8').match(/^cpu\d+ /gm)!.length
  assert.deepEqual(host[0].values[0].slice(1, 4), ['inputs-it', 'linux', cpus])
  const pid = agent.child.pid!
  const procs = await poll(() => found(`O::host_processes:(pid, cmdline) { pid = ${pid} }`), 15_000)
  const cmdline = fs
    .readFileSync(`/proc/${pid}/cmdline`, 'utf8')
    .replace(/\0+$/, '')
    .replace(/\0/g, ' ')
  assert.deepEqual(procs[0].values[0].slice(1), [pid, cmdline])
  const cpu = await poll(() => found('M::cpu:(avg(usage_idle))'), 15_000)
  const idle = Number(cpu[0].values[0][1])
  assert.ok(idle >= 0 && idle <= 100)
  // The monitor samples the registry once a second: its row may trail the stored points.
  const cpuRow = await poll(async () => {
    const monitor = (await (await fetch(`${agent.url}/v1/monitor`)).json()) as {
      inputs: { input: string; runs: number }[]
    }
    return monitor.inputs.find((i) => i.input === 'cpu' && i.runs >= 1) ?? null
  }, 15_000)
  assert.ok(cpuRow.runs >= 1)
})

test('the Open API host list shows the host with its OS and CPU fields', async () => {
  const key = fs.readFileSync(path.join(agent.dataDir, 'workspace', 'default.api-key'), 'utf8')
  const line = agent.logs.find((l) => l.includes('"workspace_started"')) ?? ''
  const base = `http://${/"listen":"([^"]+)"/.exec(line)![1]}`
  type Host = { name: string; os: string; num_cpu: number }
  const hosts = await poll(async () => {
    const res = await fetch(`${base}/api/v1/object/host/list`, {
      headers: { 'DF-API-KEY': key.trim() },
    })
    const body = (await res.json()) as { content: Host[] | null }
    return body.content?.length ? body.content : null
  }, 15_000)
  const cpus = fs.readFileSync('/proc/stat', 'utf8').match(/^cpu\d+ /gm)!.length
  const me = hosts.find((h) => h.name === 'inputs-it')!
  assert.deepEqual({ os: me.os, num_cpu: me.num_cpu }, { os: 'linux', num_cpu: cpus })
})
