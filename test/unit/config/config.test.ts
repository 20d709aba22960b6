/** Config schema: defaults, file and ENV_* overrides, `file:key: message` errors, documentation. */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { loadConfig } from '../../../src/config/load.js'
import { SCHEMA } from '../../../src/config/schema.js'
import { FerryError } from '../../../src/errors.js'

function withFile(text: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-conf-'))
  const file = path.join(dir, 'ferry.conf')
  fs.writeFileSync(file, text)
  return file
}

function errorOf(fn: () => unknown): string {
  try {
    fn()
  } catch (e) {
    assert.ok(e instanceof FerryError && e.code === 'configInvalid')
    return e.message
  }
  assert.fail('expected a config error')
}

test('defaults when no file exists', () => {
  const { config, file } = loadConfig('/nonexistent/ferry.conf', {})
  assert.equal(file, null)
  assert.equal(config.http_api.listen, '127.0.0.1:9529')
  assert.equal(config.http_api.max_body_size, 64 * 1024 * 1024)
  assert.equal(config.http_api.timeout, 30_000)
  assert.deepEqual(config.dataway.urls, [])
  assert.ok(Object.isFrozen(config.http_api))
})

test('file values, units and tables', () => {
  const file = withFile(
    `[http_api]\nlisten = "0.0.0.0:9600"\nmax_body_size = "1MiB"\ntimeout = "1m30s"\n[global_host_tags]\nregion = "eu"\n[election]\nenable = true\ntags = { zone = "a" }\n`,
  )
  const { config } = loadConfig(file, {})
  assert.equal(config.http_api.listen, '0.0.0.0:9600')
  assert.equal(config.http_api.max_body_size, 1048576)
  assert.equal(config.http_api.timeout, 90_000)
  assert.deepEqual({ ...config.global_host_tags }, { region: 'eu' })
  assert.equal(config.election.enable, true)
  assert.deepEqual({ ...config.election.tags }, { zone: 'a' })
})

test('ENV_* overrides the file', () => {
  const file = withFile(`[http_api]\nlisten = "0.0.0.0:9600"\n`)
  const { config, fromEnv } = loadConfig(file, {
    ENV_HTTP_LISTEN: '127.0.0.1:1234',
    ENV_DATAWAY: 'http://a:9528?token=tkn_1, http://b:9528?token=tkn_2',
    ENV_GLOBAL_HOST_TAGS: 'a=1,b=2',
    ENV_ENABLE_ELECTION: 'true',
  })
  assert.equal(config.http_api.listen, '127.0.0.1:1234')
  assert.deepEqual(
    [...config.dataway.urls],
    ['http://a:9528?token=tkn_1', 'http://b:9528?token=tkn_2'],
  )
  assert.deepEqual({ ...config.global_host_tags }, { a: '1', b: '2' })
  assert.equal(config.election.enable, true)
  assert.deepEqual(fromEnv.sort(), [
    'ENV_DATAWAY',
    'ENV_ENABLE_ELECTION',
    'ENV_GLOBAL_HOST_TAGS',
    'ENV_HTTP_LISTEN',
  ])
})

test('unknown keys and bad values are all reported as file:key: message', () => {
  const file = withFile(
    `[http_api]\nlisten = 9529\nlisen = "x"\n[nope]\na = 1\n[decode]\nworkers = -1\n[logging]\nlevel = "loud"\n`,
  )
  const msg = errorOf(() => loadConfig(file, {}))
  assert.deepEqual(msg.split('\n'), [
    `${file}:http_api.listen: expected a string`,
    `${file}:http_api.lisen: unknown key`,
    `${file}:nope: unknown section`,
    `${file}:decode.workers: must not be negative`,
    `${file}:logging.level: one of trace, debug, info, warn, error, fatal, silent`,
  ])
})

test('bad TOML and bad env values', () => {
  const file = withFile(`[http_api\n`)
  assert.match(
    errorOf(() => loadConfig(file, {})),
    new RegExp(`^${file}: `),
  )
  assert.equal(
    errorOf(() => loadConfig('/nonexistent', { ENV_HTTP_TIMEOUT: 'soon' })),
    'ENV_HTTP_TIMEOUT: expected a duration like "30s"',
  )
  assert.equal(
    errorOf(() => loadConfig('/nonexistent', { ENV_DATAWAY: 'ftp://x' })),
    'ENV_DATAWAY: ftp://x: only http and https',
  )
  assert.match(
    errorOf(() => loadConfig('/nonexistent', { ENV_OTLP_CLOSE_RESOURCE: '{"*": ["("]}' })),
    /^ENV_OTLP_CLOSE_RESOURCE: \*: "\(": Invalid regular expression/,
  )
})

test('the shipped conf.d/ferry.conf parses and documents every key', () => {
  const shipped = new URL('../../../conf.d/ferry.conf', import.meta.url)
  loadConfig(shipped.pathname, {})
  const text = fs.readFileSync(shipped, 'utf8')
  for (const [section, keys] of Object.entries(SCHEMA)) {
    assert.ok(text.includes(`[${section}]`), `section [${section}] is documented`)
    for (const [key, spec] of Object.entries(keys)) {
      if (key !== '*')
        assert.match(text, new RegExp(`^#? ?${key} = `, 'm'), `${section}.${key} is documented`)
      if ('env' in spec && spec.env) assert.ok(text.includes(spec.env), `${spec.env} is documented`)
    }
  }
})
