/**
 * The shipped single-node ClickHouse config (deploy/clickhouse/single) starts a real
 * clickhouse-server, with only its paths, ports and listen address moved to a temp directory
 * and loopback, and a workspace connects as its `ferry` user with the documented password.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { after, test } from 'node:test'
import { parseAllDocuments } from 'yaml'
import { clickhouseMissing, startClickHouse, type ClickHouseServer } from '../helpers/clickhouse.js'
import { startWorkspace, writeLp, type TestWorkspace } from '../helpers/workspace.js'

const missing = clickhouseMissing()
const shipped = (file: string) =>
  fs.readFileSync(new URL(`../../deploy/clickhouse/single/${file}`, import.meta.url), 'utf8')

let server: ClickHouseServer | undefined
let w: TestWorkspace | undefined
after(async () => {
  await w?.stop()
  await server?.stop()
})

function moved(dir: string, http: number, tcp: number, inter: number): string {
  return shipped('config.xml')
    .replaceAll('/var/lib/clickhouse/', `${dir}/`)
    .replaceAll('/var/log/clickhouse-server/', `${dir}/`)
    .replace('<listen_host>0.0.0.0</listen_host>', '<listen_host>127.0.0.1</listen_host>')
    .replace('<http_port>8123</http_port>', `<http_port>${http}</http_port>`)
    .replace('<tcp_port>9000</tcp_port>', `<tcp_port>${tcp}</tcp_port>`)
    .replace('<interserver_http_port>9009<', `<interserver_http_port>${inter}<`)
    .replace('<users_config>users.xml<', `<users_config>${dir}/users.xml<`)
}

test(
  'the shipped single-node config serves the workspace as user ferry',
  { skip: missing ?? false },
  async () => {
    server = await startClickHouse({ config: moved, users: shipped('users.xml') })
    w = await startWorkspace({
      ENV_WORKSPACE_ENGINE: 'clickhouse',
      ENV_WORKSPACE_CLICKHOUSE_URL: server.url,
      ENV_WORKSPACE_CLICKHOUSE_USER: 'ferry',
      ENV_WORKSPACE_CLICKHOUSE_PASSWORD: 'change-me',
    })
    const res = await writeLp(w, 'metric', `cpu,host=a usage=1 ${BigInt(Date.now()) * 1_000_000n}`)
    assert.equal(res.status, 200, await res.text())
  },
)

test('the Kubernetes example carries the shipped config and users file unchanged', async () => {
  const text = fs.readFileSync(
    new URL('../../deploy/clickhouse/kubernetes.yaml', import.meta.url),
    'utf8',
  )
  const docs = parseAllDocuments(text).map((d) => d.toJS())
  const cm = docs.find((d) => d.kind === 'ConfigMap')
  assert.equal(cm.data['config.xml'], shipped('config.xml'))
  assert.equal(cm.data['users.xml'], shipped('users.xml'))
  const ws = docs.find((d) => d.kind === 'Deployment').spec.template.spec.containers[0]
  const env = Object.fromEntries(
    ws.env.map((e: { name: string; value?: string }) => [e.name, e.value]),
  )
  assert.equal(env.ENV_WORKSPACE_ENGINE, 'clickhouse')
  assert.equal(env.ENV_WORKSPACE_CLICKHOUSE_URL, 'http://clickhouse:8123')
})
