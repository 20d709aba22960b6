/**
 * Walks README.md and deploy/README.md: starts the built agent as the quick start does
 * (`node dist/src/main.js run` from the package root, shipped config), with its ports and data
 * directory moved by ENV_* overrides, then runs every shell example in order and checks that it
 * answers as the README says. An example with no check here fails the test, so a new one must
 * come with its expectation; only what cannot run here is skipped, with the reason logged.
 */
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import readline from 'node:readline'
import { after, before, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { shellExamples, type Example } from '../helpers/readme.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const BUILT = path.join(ROOT, 'dist/src/main.js')

interface Ran {
  status: number | null
  stdout: string
  stderr: string
}
interface Check {
  match: RegExp
  /** Why it cannot run here (skipped), or how to check its answer. */
  skip?: string
  check?: (r: Ran) => void | Promise<void>
  /** Re-run until the check passes (answers that wait for an upload). */
  retryMs?: number
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo
      s.close(() => resolve(port))
    })
    s.on('error', reject)
  })
}

const json = (r: Ran) => JSON.parse(r.stdout) as Record<string, unknown>
const ok = (r: Ran) => assert.equal(r.status, 0, `exit ${r.status}: ${r.stderr}`)
const seen: Record<string, string> = {}

const CHECKS: Check[] = [
  { match: /^npm ci && npm start/, skip: 'the test has started the agent the same way' },
  { match: /^npm ci && npm test/, skip: 'this is the test suite itself' },
  { match: /^sudo /, skip: 'needs root and systemd (ferry service has its own test)' },
  { match: /^docker /, skip: 'container images are built and checked by their own test' },
  { match: /^kubectl /, skip: 'needs a Kubernetes cluster' },
  {
    match: /\/v1\/ping$/,
    check: (r) => {
      const content = json(r).content as Record<string, string>
      assert.deepEqual(Object.keys(content).sort(), ['commit', 'host', 'uptime', 'version'])
      assert.equal(content.version, '0.1.0')
    },
  },
  {
    match: /\/v1\/write\/metric\?echo=lp/,
    check: (r) => assert.match(r.stdout, /^cpu,host=web-01 load=3i,usage_idle=97\.5 \d{19}$/),
  },
  {
    match: /\/v1\/query\/raw/,
    retryMs: 10_000,
    check: (r) => {
      const series = (json(r).content as { series: unknown[] }[])[0].series
      assert.deepEqual(
        (series as { tags: unknown; values: [number, number][] }[]).map((s) => [
          s.tags,
          s.values.map((v) => v[1]),
        ]),
        [[{ host: 'web-01' }, [97.5]]],
      )
    },
  },
  {
    match: /DF-API-KEY.*\n?.*\/api\/v1\/validate/,
    check: (r) => {
      const body = json(r)
      assert.equal(body.success, true, r.stdout)
      assert.equal((body.content as { workspaceName: string }).workspaceName, 'default')
    },
  },
  {
    match: /main\.js workspace create prod/,
    check: (r) =>
      assert.match(
        r.stdout,
        /^workspace prod \(wksp_\w+\)\ndata token: tkn_\w+\napi key ak_\w+: \w+\n$/,
      ),
  },
  {
    match: /main\.js workspace list$/,
    check: (r) => assert.match(r.stdout, /^default\twksp_\w+\ttkn_\w+\nprod\twksp_\w+\ttkn_\w+\n$/),
  },
  {
    match: /main\.js workspace key create prod ci/,
    check: (r) => {
      const m = /^api key (ak_\w+) for prod: \w+\n$/.exec(r.stdout)
      assert.ok(m, r.stdout)
      seen.keyId = m[1]
    },
  },
  {
    match: /main\.js workspace key list prod$/,
    check: (r) => assert.match(r.stdout, /^(ak_\w+\t(default|ci)\t\w+…\tactive\n){2}$/),
  },
  {
    match: /main\.js workspace key revoke ak_\.\.\./,
    check: (r) => assert.match(r.stdout, new RegExp(`${seen.keyId}`)),
  },
  {
    match: /main\.js health/,
    check: (r) => assert.match(r.stdout, /^ok http:\/\/127\.0\.0\.1:\d+\/v1\/ping\n$/),
  },
  {
    match: /main\.js monitor --once/,
    check: (r) => assert.match(r.stdout, /metric/),
  },
  {
    match: /main\.js pipeline test conf\.d\/pipeline\/logging\/nginx\.js/,
    check: (r) => {
      const points = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
      assert.deepEqual(
        points.map((p) => [p.fields.client_ip, p.fields.status_code, p.fields.status]),
        [
          ['192.168.1.10', 200, 'ok'],
          ['10.0.0.7', 401, 'warning'],
        ],
      )
    },
  },
  {
    match: /\/v1\/pipeline\/debug/,
    check: (r) => {
      const c = json(r).content as {
        pl_errors: unknown[]
        plresults: { point: { fields: { client_ip: string } } }[]
      }
      assert.deepEqual(c.pl_errors, [])
      assert.deepEqual(
        c.plresults.map((p) => p.point.fields.client_ip),
        ['192.168.1.10', '10.0.0.7'],
      )
    },
  },
  {
    match: /main\.js buffer inspect/,
    check: (r) =>
      assert.match(r.stdout, /^buffer .*\n(.*\n)*damaged records: 0\ndead letters: 0\n$/),
  },
  {
    match: /main\.js buffer verify/,
    check: (r) => assert.match(r.stdout, /damaged records: 0\n/),
  },
]

let agent: ReturnType<typeof spawn> | null = null
const logs: string[] = []
let env: NodeJS.ProcessEnv = {}
let ports = { agent: 0, workspace: 0 }
let dataDir = ''

function localise(command: string): string {
  return command
    .replaceAll(/(127\.0\.0\.1|localhost):9529/g, `127.0.0.1:${ports.agent}`)
    .replaceAll(/(127\.0\.0\.1|localhost):9528/g, `127.0.0.1:${ports.workspace}`)
    .replaceAll('data/workspace/', `${dataDir}/workspace/`)
    .replaceAll('ak_...', seen.keyId ?? 'ak_...')
}

function sh(command: string): Ran {
  const r = spawnSync('sh', ['-c', command], { cwd: ROOT, env, encoding: 'utf8', timeout: 15_000 })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

before(async () => {
  if (!fs.existsSync(BUILT)) return
  ports = { agent: await freePort(), workspace: await freePort() }
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-readme-'))
  const { FERRY_CONFIG: _config, FERRY_CONTAINER: _container, ...rest } = process.env
  env = {
    ...rest,
    ENV_HTTP_LISTEN: `127.0.0.1:${ports.agent}`,
    ENV_WORKSPACE_LISTEN: `127.0.0.1:${ports.workspace}`,
    ENV_DATA_DIR: dataDir,
  }
  agent = spawn(process.execPath, [BUILT, 'run'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  agent.stderr!.on('data', (d) => logs.push(String(d)))
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start: ${logs.join('')}`)), 20_000)
    agent!.once('exit', (code) => reject(new Error(`agent exited ${code}: ${logs.join('')}`)))
    readline.createInterface({ input: agent!.stdout! }).on('line', (line) => {
      logs.push(line)
      if (line.includes('"agent_started"')) {
        clearTimeout(timer)
        resolve()
      }
    })
  })
})

after(async () => {
  if (!agent || agent.exitCode !== null) return
  const exited = new Promise((resolve) => agent!.once('exit', resolve))
  agent.kill('SIGTERM')
  await exited
})

async function walk(e: Example): Promise<void> {
  const c = CHECKS.find((k) => k.match.test(e.command.trim()))
  assert.ok(c, `${e.file}:${e.line}: no check for this example:\n${e.command}`)
  if (c.skip) return void console.log(`skipped ${e.file}:${e.line} (${c.skip})`)
  const deadline = Date.now() + (c.retryMs ?? 0)
  for (;;) {
    const r = sh(localise(e.command))
    try {
      ok(r)
      await c.check!(r)
      return
    } catch (err) {
      if (Date.now() > deadline) throw err
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
}

test('every shell example of the READMEs answers as documented', { timeout: 60_000 }, async (t) => {
  if (!fs.existsSync(BUILT)) return t.skip('dist/ is not built (npm test builds it first)')
  const examples = [
    ...shellExamples(path.join(ROOT, 'README.md'), 'README.md'),
    ...shellExamples(path.join(ROOT, 'deploy/README.md'), 'deploy/README.md'),
  ]
  assert.ok(examples.length >= 15, `only ${examples.length} examples found`)
  for (const e of examples)
    await t.test(`${e.file}:${e.line} ${e.command.split('\n')[0]}`, () => walk(e))
  const key = fs.statSync(path.join(dataDir, 'workspace/default.api-key'))
  assert.equal(key.mode & 0o777, 0o600)
  assert.match(logs.join('\n'), /API key for workspace default: \w+ \(shown once; stored in /)
})
