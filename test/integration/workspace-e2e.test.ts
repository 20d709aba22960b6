/**
 * The whole system on one machine: the agent as a child process with the embedded workspace as
 * its upstream. Line protocol written to the agent is found through the agent's
 * /v1/query/raw and, for host and process objects, through the Open API with a key made by
 * `ferry workspace key create` while the service runs (the admin route).
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { after, before, test } from 'node:test'
import { startAgent, type AgentProcess } from '../helpers/agent-process.js'
import { poll } from '../helpers/workspace.js'

const run = promisify(execFile)
const MAIN = new URL('../../src/main.ts', import.meta.url).pathname
let agent: AgentProcess
let workspaceUrl = ''

before(async () => {
  agent = await startAgent()
  const line = agent.logs.find((l) => l.includes('"workspace_started"')) ?? ''
  workspaceUrl = `http://${/"listen":"([^"]+)"/.exec(line)?.[1]}`
})
after(() => agent.stop())

async function agentQuery(
  q: string,
): Promise<{ series: { tags?: object; values: unknown[][] }[] }[]> {
  const res = await fetch(`${agent.url}/v1/query/raw`, {
    method: 'POST',
    body: JSON.stringify({ queries: [{ query: q }] }),
  })
  assert.equal(res.status, 200)
  return ((await res.json()) as { content: { series: { values: unknown[][] }[] }[] }).content
}

test('line protocol written to the agent is found through the agent query route', async () => {
  const now = Date.now() * 1e6
  const body = ['cpu,cpu=total usage_idle=90.5 ', 'cpu,cpu=total usage_idle=80.5 ']
    .map((l, i) => `${l}${now - i * 1e9}`)
    .join('\n')
  const res = await fetch(`${agent.url}/v1/write/metric`, { method: 'POST', body })
  assert.equal(res.status, 200)
  const content = await poll(async () => {
    const c = await agentQuery('M::cpu:(avg(usage_idle), count(usage_idle)) BY host')
    // No content while the first write's table is still being committed: ask again.
    return c?.[0]?.series.length ? c : null
  })
  const [series] = content[0].series
  // The agent added its host tag; the workspace grouped by it.
  assert.equal(typeof (series.tags as { host: string }).host, 'string')
  assert.deepEqual(series.values[0].slice(1), [85.5, 2])
})

test('host and process objects are listed by the Open API', async () => {
  const now = Date.now() * 1e6
  const objects = [
    `HOST,name=e2e-host os="linux",cpu_cores=2i ${now}`,
    `host_processes,name=e2e-host_42 process_name="ferry",pid=42i ${now}`,
  ].join('\n')
  assert.equal(
    (await fetch(`${agent.url}/v1/write/object`, { method: 'POST', body: objects })).status,
    200,
  )
  const env = {
    ...process.env,
    ENV_DATA_DIR: agent.dataDir,
    ENV_WORKSPACE_LISTEN: workspaceUrl.slice('http://'.length),
  }
  const cli = await run(
    process.execPath,
    [
      '--import',
      'tsx',
      MAIN,
      'workspace',
      'key',
      'create',
      'default',
      'e2e',
      '--json',
      '--config',
      path.join(agent.dataDir, 'ferry.conf'),
    ],
    { env },
  )
  const { key } = JSON.parse(cli.stdout) as { key: string }
  const list = async (kind: string) => {
    const res = await fetch(`${workspaceUrl}/api/v1/object/${kind}/list`, {
      headers: { 'DF-API-KEY': key },
    })
    assert.equal(res.status, 200)
    return ((await res.json()) as { content: Record<string, unknown>[] }).content
  }
  const hosts = await poll(async () => ((await list('host')).length ? list('host') : null))
  assert.deepEqual([hosts[0].name, hosts[0].os, hosts[0].cpu_cores], ['e2e-host', 'linux', 2])
  const procs = await list('process')
  assert.deepEqual(
    [procs[0].name, procs[0].process_name, procs[0].pid],
    ['e2e-host_42', 'ferry', 42],
  )
})

test('object labels are forwarded to the workspace', async () => {
  const body = JSON.stringify({
    object_class: 'HOST',
    object_name: 'e2e-host',
    key: 'name',
    value: 'e2e-host',
    labels: ['blue'],
  })
  const res = await fetch(`${agent.url}/v1/object/labels`, { method: 'POST', body })
  assert.equal(res.status, 200)
  assert.match(((await res.json()) as { content: { _id: string } }).content._id, /^lbl_/)
  const del = await fetch(`${agent.url}/v1/object/labels`, {
    method: 'DELETE',
    body: JSON.stringify({ object_class: 'HOST', object_name: 'nope' }),
  })
  assert.equal(del.status, 500)
  assert.deepEqual(await del.json(), {
    errorCode: 'ObjectNotFound',
    message: 'upstream answered 404',
  })
})
