/**
 * The command line as a user meets it: help for the CLI and every command, --version, and the
 * common mistakes, each answered with its exit status (2 usage, 1 failure) and one line on
 * stderr, never a stack trace.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const BUILT = path.join(ROOT, 'dist/src/main.js')
const SCRIPT = path.join(ROOT, 'conf.d/pipeline/logging/nginx.js')
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-cli-'))
const skip = fs.existsSync(BUILT) ? false : 'dist/ is not built (npm test builds it first)'

function ferry(args: string[], env: Record<string, string> = {}) {
  const { FERRY_CONFIG: _c, FERRY_CONTAINER: _k, ...rest } = process.env
  const r = spawnSync(process.execPath, [BUILT, ...args], {
    cwd: TMP,
    env: { ...rest, ENV_DATA_DIR: TMP, ENV_WORKSPACE_EMBEDDED: 'false', ...env },
    encoding: 'utf8',
    timeout: 20_000,
  })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

function listening(): Promise<net.Server> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => resolve(s))
  })
}
const portOf = (s: net.Server) => (s.address() as net.AddressInfo).port

const COMMANDS = [
  ['run'],
  ['health'],
  ['service', 'install'],
  ['buffer'],
  ['buffer', 'inspect'],
  ['buffer', 'verify'],
  ['pipeline', 'test'],
  ['workspace', 'key', 'create'],
  ['workspace', 'retention', 'set'],
  ['workspace', 'verify'],
  ['tool', 'ipinfo'],
  ['migrate'],
  ['completion'],
]

test('--help, -h, help and --version', { skip }, () => {
  const help = ferry(['--help'])
  assert.equal(help.status, 0)
  assert.match(help.stdout, /^usage: ferry <command> \[options\]\n/)
  assert.equal(ferry(['-h']).stdout, help.stdout)
  assert.equal(ferry(['help']).stdout, help.stdout)
  const version = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version
  assert.deepEqual(ferry(['--version']), { status: 0, stdout: `${version}\n`, stderr: '' })
})

test('every command has its own help', { skip }, () => {
  for (const words of COMMANDS) {
    const r = ferry([...words, '--help'])
    assert.equal(r.status, 0, words.join(' '))
    assert.match(r.stdout, new RegExp(`^usage: ferry ${words.join(' ')}\\b`), words.join(' '))
    assert.match(r.stdout, /\nexit status: 0 ok, 1 failure, 2 usage error\.\n$/)
  }
})

test('user mistakes: exit status, one line, no stack trace', { skip }, async () => {
  const busy = await listening()
  const closed = await listening()
  const closedPort = portOf(closed)
  await new Promise((resolve) => closed.close(resolve))
  const cases: [string[], Record<string, string>, number, string][] = [
    [['nope'], {}, 2, 'unknown command "nope" (see ferry --help)'],
    [['buffer'], {}, 2, 'buffer: expected inspect, verify (see ferry buffer --help)'],
    [
      ['buffer', 'inspect', '--bogus'],
      {},
      2,
      'unknown option --bogus (see ferry buffer inspect --help)',
    ],
    [
      ['monitor', '--interval'],
      {},
      2,
      'option --interval needs a value (see ferry monitor --help)',
    ],
    [
      ['monitor', '--interval', 'soon', '--once'],
      {},
      2,
      '--interval: expected a duration like "2s"',
    ],
    [['pipeline', 'test', SCRIPT], {}, 2, 'missing --input FILE (see ferry pipeline test --help)'],
    [['pipeline', 'test'], {}, 2, 'missing arguments (see ferry pipeline test --help)'],
    [
      ['pipeline', 'test', SCRIPT, '--input', 'access.log'],
      {},
      1,
      'cannot read access.log: no such file',
    ],
    [['completion', 'fish'], {}, 2, 'completion: expected bash or zsh'],
    [
      ['check-config', '--config', 'nope.conf'],
      {},
      1,
      'cannot read config nope.conf: no such file',
    ],
    [
      ['check-config'],
      { FERRY_CONFIG: 'nope.conf' },
      1,
      'cannot read config nope.conf: no such file',
    ],
    [
      ['check-config'],
      { ENV_HTTP_LISTEN: '127.0.0.1:99999' },
      1,
      'ENV_HTTP_LISTEN: port 99999 out of range (0-65535)',
    ],
    [
      ['buffer', 'inspect', '--path', 'no-buffer'],
      {},
      1,
      'cannot read buffer no-buffer: no such buffer',
    ],
    [
      ['health'],
      { ENV_HTTP_LISTEN: `127.0.0.1:${closedPort}` },
      1,
      `unhealthy: http://127.0.0.1:${closedPort}/v1/ping: connection refused`,
    ],
    [
      ['run'],
      { ENV_HTTP_LISTEN: `127.0.0.1:${portOf(busy)}` },
      1,
      `cannot listen on 127.0.0.1:${portOf(busy)}: address already in use`,
    ],
  ]
  try {
    for (const [args, env, status, message] of cases) {
      const r = ferry(args, env)
      assert.deepEqual([r.status, r.stderr], [status, `ferry: ${message}\n`], args.join(' '))
    }
  } finally {
    busy.close()
  }
  assert.equal(fs.existsSync(path.join(TMP, 'no-buffer')), false, 'inspect created nothing')
})

test('completion scripts are valid shell', { skip }, () => {
  const bash = ferry(['completion', 'bash'])
  assert.equal(bash.status, 0)
  assert.match(bash.stdout, /\ncomplete -F _ferry ferry\n$/)
  assert.match(bash.stdout, /\n {4}"buffer"\) words="inspect verify" ;;\n/)
  assert.equal(spawnSync('bash', ['-n'], { input: bash.stdout }).status, 0)
  const zsh = ferry(['completion', 'zsh'])
  assert.match(zsh.stdout, /^# ferry completion \(zsh\)[^\n]*\nautoload -U \+X bashcompinit/)
})

test(
  'tool ipinfo shows the geo tags of an address; a non-address is a usage error',
  { skip },
  () => {
    const r = ferry(['tool', 'ipinfo', '8.8.8.8', '--json'])
    assert.equal(r.status, 0, r.stderr)
    assert.deepEqual(JSON.parse(r.stdout), {
      ip: '8.8.8.8',
      city: 'Mountain View',
      province: 'California',
      country: 'US',
      isp: 'Google LLC',
      ip_status: 'public',
    })
    assert.deepEqual(ferry(['tool', 'ipinfo', 'nope']), {
      status: 2,
      stdout: '',
      stderr: 'ferry: tool ipinfo: "nope" is not an IP address\n',
    })
  },
)
