/**
 * Walks README.md, deploy/README.md and every page of docs/: starts the built agent as the quick
 * start does (`node dist/src/main.js run` from the package root, shipped config), with its ports
 * and data directory moved by ENV_* overrides, then runs every shell example in order and checks
 * that it answers as the page says; the README's "start it again" restarts the agent. An example
 * with no check (test/helpers/readme-checks.ts) fails the test, so a new one must come with its
 * expectation; only what cannot run here is skipped, with the reason logged. The files the
 * five-minute tour writes into conf.d/ are removed before and after.
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
import { CHECKS, ok, seen, type Ran } from '../helpers/readme-checks.js'
import { TOUR_FILES } from '../helpers/readme-tour-checks.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const BUILT = path.join(ROOT, 'dist/src/main.js')

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo
      s.close(() => resolve(port))
    })
    s.on('error', reject)
  })
}

let agent: ReturnType<typeof spawn> | null = null
const logs: string[] = []
let env: NodeJS.ProcessEnv = {}
let ports = { agent: 0, workspace: 0 }
let dataDir = ''

function localise(command: string): string {
  return command
    .replaceAll(/(?<![\w/.-])logs(?=\/|\s|$)/g, `${dataDir}/logs`)
    .replaceAll(/(127\.0\.0\.1|localhost):9529/g, `127.0.0.1:${ports.agent}`)
    .replaceAll(/(127\.0\.0\.1|localhost):9528/g, `127.0.0.1:${ports.workspace}`)
    .replaceAll('data/workspace/', `${dataDir}/workspace/`)
    .replaceAll('ak_...', seen.keyId ?? 'ak_...')
}

function sh(command: string): Ran {
  const r = spawnSync('sh', ['-c', command], { cwd: ROOT, env, encoding: 'utf8', timeout: 15_000 })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

async function startAgent(): Promise<void> {
  agent = spawn(process.execPath, [BUILT, 'run'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  agent.stderr!.on('data', (d) => logs.push(String(d)))
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start: ${logs.join('')}`)), 30_000)
    agent!.once('exit', (code) => reject(new Error(`agent exited ${code}: ${logs.join('')}`)))
    readline.createInterface({ input: agent!.stdout! }).on('line', (line) => {
      logs.push(line)
      if (line.includes('"agent_started"')) {
        clearTimeout(timer)
        resolve()
      }
    })
  })
}

async function stopAgent(): Promise<void> {
  if (!agent || agent.exitCode !== null) return
  const exited = new Promise((resolve) => agent!.once('exit', resolve))
  agent.kill('SIGTERM')
  await exited
}

const removeTourFiles = () =>
  TOUR_FILES.forEach((f) => fs.rmSync(path.join(ROOT, f), { force: true }))

before(async () => {
  if (!fs.existsSync(BUILT)) return
  removeTourFiles()
  ports = { agent: await freePort(), workspace: await freePort() }
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-readme-'))
  const { FERRY_CONFIG: _config, FERRY_CONTAINER: _container, ...rest } = process.env
  env = {
    ...rest,
    ENV_HTTP_LISTEN: `127.0.0.1:${ports.agent}`,
    ENV_WORKSPACE_LISTEN: `127.0.0.1:${ports.workspace}`,
    ENV_DATA_DIR: dataDir,
  }
  await startAgent()
})

after(async () => {
  removeTourFiles()
  await stopAgent()
})

/** Every Markdown page of docs/, in name order. */
const docPages = () =>
  fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`)

async function walk(e: Example): Promise<void> {
  const c = CHECKS.find((k) => k.match.test(e.command.trim()))
  assert.ok(c, `${e.file}:${e.line}: no check for this example:\n${e.command}`)
  if (c.skip) return void console.log(`skipped ${e.file}:${e.line} (${c.skip})`)
  if (c.restart) return stopAgent().then(startAgent)
  if (c.waitMs) await new Promise((resolve) => setTimeout(resolve, c.waitMs))
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

test(
  'every shell example of the READMEs and docs answers as documented',
  { timeout: 300_000 },
  async (t) => {
    if (!fs.existsSync(BUILT)) return t.skip('dist/ is not built (npm test builds it first)')
    const examples = [
      ...shellExamples(path.join(ROOT, 'README.md'), 'README.md'),
      ...shellExamples(path.join(ROOT, 'deploy/README.md'), 'deploy/README.md'),
      ...docPages().flatMap((f) => shellExamples(path.join(ROOT, f), f)),
    ]
    assert.ok(examples.length >= 15, `only ${examples.length} examples found`)
    for (const e of examples)
      await t.test(`${e.file}:${e.line} ${e.command.split('\n')[0]}`, () => walk(e))
    const key = fs.statSync(path.join(dataDir, 'workspace/default.api-key'))
    assert.equal(key.mode & 0o777, 0o600)
    assert.match(logs.join('\n'), /API key for workspace default: \w+ \(shown once; stored in /)
  },
)
