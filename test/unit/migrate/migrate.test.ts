/**
 * `ferry migrate` on hand-written configs shaped like the reference's shipped samples
 * (test/fixtures/migrate/conf.d): the exact files planned, the exact list of keys not mapped,
 * placeholders expanded from the environment or reported, and existing output kept.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { INPUT_KINDS } from '../../../src/inputs/kinds.js'
import { planMigration, writeMigration } from '../../../src/migrate/migrate.js'
import { expand } from '../../../src/migrate/placeholders.js'
import { problemLine } from '../../../src/migrate/report.js'

const CONF_D = fileURLToPath(new URL('../../fixtures/migrate/conf.d/', import.meta.url))
const MAIN = path.join(CONF_D, 'datakit.conf')
const INPUTS = new Map([...INPUT_KINDS].map(([name, kind]) => [name, kind.schema]))
const ENV = {
  DK_DATAWAY: 'https://openway.example.com?token=tkn_0123456789abcdef0123456789abcdef',
  DK_HTTP_LISTEN: '0.0.0.0',
  CLUSTER_NAME: 'prod-a',
  DEPLOY_ENV: 'prod',
}

const plan = (env: NodeJS.ProcessEnv) => planMigration({ mainFile: MAIN, env, inputs: INPUTS })

const FERRY_CONF = `# Written by \`ferry migrate\` from datakit.conf.
# Keys not written here take Ferry's defaults; conf.d/ferry.conf documents every key.

[agent]
hostname = "web-01"
default_enabled_inputs = ["cpu", "disk", "diskio", "host_processes", "hostobject", "mem", "net", "swap", "system"]

[http_api]
listen = "0.0.0.0:9529"
timeout = "30s"
public_apis = ["/v1/write/rum", "/metrics"]
allowed_cors_origins = []
request_rate_limit = 100
request_rate_limit_burst = 500

[dataway]
urls = ["https://openway.example.com?token=tkn_0123456789abcdef0123456789abcdef"]
timeout = "20s"
max_raw_body_size = 1048576
compression = "gzip"
retry_initial = "2s"
http_proxy = "http://127.0.0.1:3128"
enable_sinker = false
global_customer_keys = []

[dataway.ntp]
enable = true
interval = "5m"
diff = "30s"

[dataway.wal]
max_capacity_gb = 4

[io]
auto_timestamp_correction = true

[global_host_tags]
region = "cn-hangzhou"
cluster = "prod-a"

[election]
enable = false

[election.tags]
project = "shop"

[logging]
level = "info"

[pipeline]
refer_table_url = ""
refer_table_pull_interval = "5m"

[pipeline.default_pipeline]
logging = "nginx"

[rum]
app_id_white_list = []
origin_ip_header = "X-Real-IP"
`

const INPUT_FILES: Record<string, string> = {
  'host/cpu.conf': `# Written by \`ferry migrate\` from host/cpu.conf.

[[inputs.cpu]]
  interval = "10s"
  percpu = false
  enable_temperature = true
  enable_load5s = true

[inputs.cpu.tags]
  rack = "r12"
`,
  'host/disk.conf': `# Written by \`ferry migrate\` from host/disk.conf.

[[inputs.disk]]
  interval = "10s"
  only_physical_device = false
  use_nsenter = false
  extra_device = ["/nfsdata"]
  ignore_fstypes = "^(tmpfs|autofs|binfmt_misc|devpts|fuse.lxcfs|overlay|proc|squashfs|sysfs)$"
  ignore_mountpoints = "^(/usr/local/datakit/.*|/run/containerd/.*)$"
`,
  'host/mem.conf': `# Written by \`ferry migrate\` from host/mem.conf.

[[inputs.mem]]
  interval = "30s"
`,
  'log/logging.conf': `# Written by \`ferry migrate\` from log/logging.conf.

[[inputs.logging]]
  logfiles = ["/var/log/nginx/access.log", "/var/log/nginx/error.log"]
  ignore = ["*.gz"]
  source = "nginx"
  service = "shop-web"
  pipeline = "nginx.p"
  character_encoding = ""
  remove_ansi_escape_codes = false
  multiline_match = '^\\d{4}/\\d{2}/\\d{2}'
  ignore_dead_log = "1h"
  from_beginning = false

[inputs.logging.tags]
  env = "prod"
`,
  'prom/prom.conf': `# Written by \`ferry migrate\` from prom/prom.conf.

[[inputs.prom]]
  urls = ["http://127.0.0.1:9100/metrics"]
  interval = "30s"
  ignore_req_err = false
  source = "prom"
  measurement_prefix = ""
  keep_exist_metric_name = false
  honor_timestamps = true
  metric_name_filter = ["^node_(cpu|memory|filesystem)_"]
  election = true
  disable_host_tag = false
  disable_instance_tag = false
  disable_info_tag = false

[inputs.prom.tags_rename]
  overwrite_exist_tags = false

[inputs.prom.tags]
  exporter = "node"
`,
}

test('the main config and every input file are mapped to exact text', () => {
  const p = plan(ENV)
  assert.deepEqual([...p.files.keys()], ['ferry.conf', ...Object.keys(INPUT_FILES)])
  assert.equal(p.files.get('ferry.conf'), FERRY_CONF)
  for (const [rel, text] of Object.entries(INPUT_FILES)) assert.equal(p.files.get(rel), text, rel)
})

test('every key not mapped is listed with its reason, in file order', () => {
  const p = plan(ENV)
  assert.deepEqual(p.problems.map(problemLine), [
    'datakit.conf:default_enabled_inputs: "container": no such input in Ferry; left out of the list',
    'datakit.conf:dataway.max_retry_count: Ferry retries failed uploads with backoff (retry_initial to retry_max) until drop_expired_package_at',
    'datakit.conf:dataway.wal.no_drop_categories: Ferry drops nothing when full with [dataway.wal] when_full = "reject"',
    'datakit.conf:global_host_tags.ip: $datakit_ip is filled in by the reference agent at each start; Ferry has no such placeholder',
    'db/mysql.conf:inputs.mysql: Ferry has no mysql input',
    'log/logging.conf:inputs.logging.auto_multiline_detection: Ferry joins lines only by multiline_match',
    'prom/prom.conf:inputs.prom.measurements: [[inputs.prom.measurements]] is not supported by Ferry yet',
  ])
  assert.equal(p.skipped, 61)
})

test('placeholders whose variables are unset are reported and their keys left out', () => {
  const p = plan({})
  const lines = p.problems.map(problemLine)
  assert.deepEqual(
    lines.filter((l) => l.includes('not expanded')),
    [
      'datakit.conf:http_api.listen: {{.HTTPAPI.Listen}} not expanded: DK_HTTP_LISTEN or DK_HTTP_PORT is not set',
      'datakit.conf:dataway.urls: {{.Dataway.URLs}} not expanded: DK_DATAWAY is not set',
      'datakit.conf:global_host_tags.cluster: ${CLUSTER_NAME} not expanded: CLUSTER_NAME is not set',
      'log/logging.conf:inputs.logging.tags: ${DEPLOY_ENV} not expanded: DEPLOY_ENV is not set',
    ],
  )
  const main = p.files.get('ferry.conf')!
  assert.doesNotMatch(main, /\{\{|\$/)
  assert.doesNotMatch(main, /^urls|^listen/m)
})

test('expand: template fields, $NAME and ${NAME}, host placeholders, ENC[...]', () => {
  assert.deepEqual(expand('{{ .HTTPAPI.Listen }}', { DK_HTTP_PORT: '9530' }), {
    value: 'localhost:9530',
    whole: true,
  })
  assert.deepEqual(expand('http://${HOST}:$PORT/metrics', { HOST: 'db', PORT: '9104' }), {
    value: 'http://db:9104/metrics',
    whole: false,
  })
  assert.deepEqual(expand('^\\d{4}$', {}), { value: '^\\d{4}$', whole: false })
  assert.deepEqual(expand('{{.Nope}}', {}), {
    problem: '{{.Nope}} not expanded: the installer has no template field Nope',
  })
  assert.deepEqual(expand('__datakit_hostname', {}), {
    problem:
      '__datakit_hostname is filled in by the reference agent at each start; Ferry has no such placeholder',
  })
  assert.deepEqual(expand('ENC[aes://abc]', {}), {
    problem: 'an encrypted ENC[...] value; write the secret itself (or a $VARIABLE)',
  })
})

test('a list placeholder becomes the list, a bare template is read as its value', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-migrate-'))
  const file = path.join(dir, 'datakit.conf')
  fs.writeFileSync(
    file,
    '[dataway]\n  urls = ["{{.Dataway.URLs}}"]\n[election]\n  enable = {{.Election.Enable}}\n' +
      '[global_host_tags]\n  host = "__datakit_hostname"\n',
  )
  const p = planMigration({
    mainFile: file,
    env: {
      DK_DATAWAY: 'http://a:9528?token=tkn_a, http://b:9528?token=tkn_b',
      DK_ENABLE_ELECTION: 'true',
    },
    inputs: INPUTS,
  })
  assert.deepEqual(p.problems, [])
  assert.equal(
    p.files.get('ferry.conf'),
    "# Written by `ferry migrate` from datakit.conf.\n# Keys not written here take Ferry's defaults; conf.d/ferry.conf documents every key.\n\n" +
      '[dataway]\nurls = ["http://a:9528?token=tkn_a", "http://b:9528?token=tkn_b"]\n\n[election]\nenable = true\n',
  )
})

test('existing output is kept unless forced, and nothing is written then', () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-migrate-out-'))
  fs.mkdirSync(path.join(out, 'prom'))
  fs.writeFileSync(path.join(out, 'prom', 'prom.conf'), 'mine\n')
  const p = plan(ENV)
  assert.throws(
    () => writeMigration(p, out, false),
    (e: Error & { code?: string }) =>
      e.code === 'outputExists' &&
      e.message === `${path.join(out, 'prom', 'prom.conf')} exists (--force replaces it)`,
  )
  assert.equal(fs.existsSync(path.join(out, 'ferry.conf')), false)
  writeMigration(p, out, true)
  assert.equal(
    fs.readFileSync(path.join(out, 'prom', 'prom.conf'), 'utf8'),
    INPUT_FILES['prom/prom.conf'],
  )
  assert.equal(fs.statSync(path.join(out, 'ferry.conf')).mode & 0o777, 0o600)
})

test('unreadable or malformed input stops the migration', () => {
  assert.throws(
    () => planMigration({ mainFile: path.join(CONF_D, 'nope.conf'), env: {}, inputs: INPUTS }),
    /cannot read datakit.conf .*nope.conf: no such file/,
  )
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-migrate-bad-'))
  fs.writeFileSync(path.join(dir, 'datakit.conf'), '[http_api]\n')
  fs.mkdirSync(path.join(dir, 'host'))
  fs.writeFileSync(path.join(dir, 'host', 'cpu.conf'), '[[inputs.cpu]\n')
  assert.throws(
    () => planMigration({ mainFile: path.join(dir, 'datakit.conf'), env: {}, inputs: INPUTS }),
    (e: Error & { code?: string }) => e.code === 'configInvalid' && e.message.includes('cpu.conf'),
  )
})
