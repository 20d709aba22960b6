/**
 * What each shell example of the READMEs must answer (test/integration/readme.test.ts): matched
 * by the command, with the reason when it cannot run here.
 */
import assert from 'node:assert/strict'
import { TOUR_CHECKS } from './readme-tour-checks.js'

export interface Ran {
  status: number | null
  stdout: string
  stderr: string
}
export interface Check {
  match: RegExp
  /** Why it cannot run here (skipped), or how to check its answer. */
  skip?: string
  check?: (r: Ran) => void | Promise<void>
  /** Re-run until the check passes (answers that wait for an upload). */
  retryMs?: number
  /** Restart the agent instead of running the command (the README's "start it again"). */
  restart?: boolean
  /** Wait this long before running it (the README says a reload takes that long). */
  waitMs?: number
}

const json = (r: Ran) => JSON.parse(r.stdout) as Record<string, unknown>
export const ok = (r: Ran) => assert.equal(r.status, 0, `exit ${r.status}: ${r.stderr}`)
export const seen: Record<string, string> = {}

export const CHECKS: Check[] = [
  { match: /^npm ci && npm start/, skip: 'the test has started the agent the same way' },
  { match: /^npm ci && npm test/, skip: 'this is the test suite itself' },
  { match: /^npm start$/, restart: true },
  { match: /^sudo /, skip: 'needs root and systemd (ferry service has its own test)' },
  { match: /^docker /, skip: 'container images are built and checked by their own test' },
  { match: /^kubectl /, skip: 'needs a Kubernetes cluster' },
  {
    match: /^ferry /,
    skip: 'the installed command; the pages run the same commands as node dist/src/main.js',
  },
  { match: /^export ENV_WORKSPACE_/, skip: 'needs ClickHouse servers (the ClickHouse tests)' },
  { match: /^OTEL_EXPORTER_OTLP_/, skip: "an application's SDK settings (the OTLP tests)" },
  {
    match: /\/v1\/ping$/,
    check: (r) => {
      const content = json(r).content as Record<string, string>
      assert.deepEqual(Object.keys(content).sort(), [
        'buffer_id',
        'commit',
        'health',
        'host',
        'uptime',
        'version',
        'workspace',
      ])
      assert.equal(content.version, '0.1.0')
      assert.equal(content.workspace, 'ok')
      assert.deepEqual(content.health, { status: 'ok', reasons: [] })
    },
  },
  {
    match: /\/v1\/write\/metric\?echo=lp/,
    check: (r) => assert.match(r.stdout, /^demo,host=web-01 load=3i,usage_idle=97\.5 \d{19}$/),
  },
  ...TOUR_CHECKS,
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
        /^workspace prod \(wksp_\w+\)\ndata token: tkn_\w+\napi key ak_\w+ \(shown once\)\nDF-API-KEY: \w+\n$/,
      ),
  },
  {
    match: /main\.js workspace list$/,
    check: (r) => assert.match(r.stdout, /^default\twksp_\w+\ttkn_\w+\nprod\twksp_\w+\ttkn_\w+\n$/),
  },
  {
    match: /main\.js workspace key create prod ci/,
    check: (r) => {
      const m = /^api key (ak_\w+) for prod \(shown once\)\nDF-API-KEY: \w+\n$/.exec(r.stdout)
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
    match: /main\.js workspace retention set prod logging 14d$/,
    check: (r) => assert.equal(r.stdout, 'prod keeps logging 14d\n'),
  },
  {
    match: /main\.js workspace retention set prod metric forever$/,
    check: (r) => assert.equal(r.stdout, 'prod keeps metric forever\n'),
  },
  {
    match: /main\.js workspace retention list prod$/,
    check: (r) => assert.equal(r.stdout, 'prod\tlogging\t14d\nprod\tmetric\tforever\n'),
  },
  {
    match: /main\.js workspace retention clear prod metric$/,
    check: (r) => assert.equal(r.stdout, 'prod keeps metric as the global retention says\n'),
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
          ['192.168.1.10', 200, 'OK'],
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
