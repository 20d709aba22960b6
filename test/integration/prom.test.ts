/**
 * The `prom` input against real endpoints on loopback: a test server (auth, errors, bounds),
 * the agent's own `/metrics`, a real Prometheus server's `/metrics` (OpenMetrics), a real
 * node-exporter, and the agent scraping a target from a `[[inputs.prom]]` file into its workspace.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import type { FerryError } from '../../src/errors.js'
import { validateInstance } from '../../src/inputs/conf/load.js'
import { Prom, promInput } from '../../src/inputs/prom/prom.js'
import type { PromConf } from '../../src/inputs/prom/schema.js'
import type { Point } from '../../src/shared/point.js'
import { startAgent } from '../helpers/agent-process.js'
import { hasCommand } from '../helpers/commands.js'
import { hasNodeExporter, NODE_EXPORTER, startNodeExporter } from '../helpers/node-exporter.js'
import { startPrometheus } from '../helpers/prometheus.js'
import { poll } from '../helpers/workspace.js'

const SHOP = '# TYPE shop_orders_total counter\nshop_orders_total{region="eu"} 42\n'

async function serve(
  handler: http.RequestListener,
): Promise<{ url: string; close: () => Promise<void> }> {
  const srv = http.createServer(handler)
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r))
  const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`
  return { url, close: () => new Promise((r) => srv.close(() => r())) }
}

function prom(raw: Record<string, unknown>): { input: Prom; errors: FerryError[] } {
  const problems: string[] = []
  const conf = validateInstance(promInput, raw, 'prom', problems) as PromConf
  assert.deepEqual(problems, [])
  const errors: FerryError[] = []
  const events = { failed: (_: string, e: FerryError) => errors.push(e) }
  const input = new Prom(conf, { events } as never, (p) => fs.readFileSync(p, 'utf8'))
  return { input, errors }
}

const collect = (p: Prom) => p.collect({ signal: new AbortController().signal, now: 1n })
const shape = (ps: Point[]) =>
  ps.map((p) => [p.name, p.tags.map((t) => `${t.key}=${t.value}`).join(','), p.fields[0]!.key])

test('a loopback target: bearer token, failing and oversized targets, series bound', async () => {
  const token = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-prom-')), 'token')
  fs.writeFileSync(token, 's3cret\n')
  const srv = await serve((req, res) => {
    if (req.url === '/big') return res.end('a 1\n'.repeat(1000))
    if (req.headers.authorization !== 'Bearer s3cret') return res.writeHead(401).end()
    res.end(SHOP + 'shop_items{k="1"} 1\nshop_items{k="2"} 2\n')
  })
  try {
    const auth = { type: 'bearer_token', token_file: token }
    const ok = prom({ urls: [`${srv.url}/metrics`], auth, tags_ignore: ['k'], max_series: 2 })
    const port = new URL(srv.url).host
    assert.deepEqual(shape(await collect(ok.input)), [
      ['shop', `instance=${port},region=eu`, 'orders_total'],
      ['shop', `instance=${port}`, 'items'],
    ])
    assert.deepEqual(
      ok.errors.map((e) => [e.code, e.message]),
      [['tooManyPoints', `${srv.url}/metrics: 1 series over max_series cut`]],
    )
    const bad = prom({ urls: [`${srv.url}/m`, `${srv.url}/big`], max_body_size: 1000 })
    assert.deepEqual(await collect(bad.input), [])
    assert.deepEqual(
      bad.errors.map((e) => [e.code, e.message]),
      [
        ['collectFailed', `${srv.url}/m: HTTP 401`],
        ['bodyTooLarge', `${srv.url}/big: body over max_body_size (1000 bytes)`],
      ],
    )
  } finally {
    await srv.close()
  }
})

test("the agent's own /metrics scrapes into ferry_* measurements", async () => {
  const agent = await startAgent()
  try {
    const p = prom({ urls: [`${agent.url}/metrics`] })
    const points = await collect(p.input)
    assert.deepEqual(p.errors, [])
    const ferry = points.filter((x) => x.name === 'ferry').map((x) => x.fields[0]!.key)
    assert.ok(ferry.includes('input_errors_total') || ferry.length > 10, ferry.join(','))
    assert.ok(points.every((x) => x.fields.every((f) => typeof f.value === 'number')))
  } finally {
    await agent.stop()
  }
})

test("a real Prometheus server's /metrics (OpenMetrics)", async (t) => {
  if (!hasCommand('prometheus')) return t.skip('prometheus not installed (Debian package)')
  const target = await serve((_, res) => res.end(SHOP))
  const server = await startPrometheus(target.url.replace('http://', ''))
  try {
    const p = prom({
      urls: [`${server.url}/metrics`],
      metric_name_filter: ['^prometheus_build_info$', '^go_goroutines$'],
    })
    // Prometheus takes a moment to listen: refused connections until then are not the point.
    const points = await poll(async () => {
      p.errors.length = 0
      const got = await collect(p.input)
      return got.length ? got : null
    }, 20_000)
    assert.deepEqual(p.errors, [])
    const byName = Object.fromEntries(points.map((x) => [`${x.name}.${x.fields[0]!.key}`, x]))
    assert.equal(byName['prometheus.build_info']!.fields[0]!.value, 1)
    assert.ok((byName['go.goroutines']!.fields[0]!.value as number) > 0)
  } finally {
    await server.stop()
    await target.close()
  }
})

test('a real node-exporter: load and memory gauges, as the reference maps them', async (t) => {
  if (!hasNodeExporter())
    return t.skip(`${NODE_EXPORTER} missing (Debian prometheus-node-exporter)`)
  const exporter = await startNodeExporter()
  try {
    const p = prom({
      urls: [`${exporter.url}/metrics`],
      metric_name_filter: ['^node_load1$', '^node_memory_MemTotal_bytes$'],
    })
    // The exporter takes a moment to listen: refused connections until then are not the point.
    await poll(async () => {
      p.errors.length = 0
      return (await collect(p.input)).length ? true : null
    }, 20_000)
    // The kernel updates the load every 5 s: the scrape reads what /proc read before or after.
    const load = () => Number(fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0])
    const loadBefore = load()
    const points = await collect(p.input)
    const loadAfter = load()
    assert.deepEqual(p.errors, [])
    assert.deepEqual(shape(points).sort(), [
      ['node', `instance=${new URL(exporter.url).host}`, 'load1'],
      ['node', `instance=${new URL(exporter.url).host}`, 'memory_MemTotal_bytes'],
    ])
    const byField = Object.fromEntries(points.map((x) => [x.fields[0]!.key, x.fields[0]!.value]))
    assert.ok([loadBefore, loadAfter].includes(byField.load1 as number), String(byField.load1))
    const memKb = Number(/MemTotal:\s+(\d+) kB/.exec(fs.readFileSync('/proc/meminfo', 'utf8'))![1])
    assert.equal(byField.memory_MemTotal_bytes, memKb * 1024)
  } finally {
    await exporter.stop()
  }
})

test('an [[inputs.prom]] file makes the agent scrape into its workspace', async () => {
  const target = await serve((_, res) => res.end(SHOP))
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-prom-agent-'))
  fs.writeFileSync(
    path.join(dir, 'prom.conf'),
    `[[inputs.prom]]\n  urls = ["${target.url}/metrics"]\n  interval = "1s"\n` +
      `  measurement_prefix = "x_"\n[inputs.prom.tags_rename]\n  overwrite_exist_tags = false\n` +
      `[inputs.prom.tags_rename.mapping]\n  region = "zone"\n`,
  )
  const agent = await startAgent({}, '', dir)
  try {
    const got = await poll(async () => {
      const res = await fetch(`${agent.url}/v1/query/raw`, {
        method: 'POST',
        body: JSON.stringify({ queries: [{ query: 'M::x_shop:(last(orders_total)) BY zone' }] }),
      })
      const body = (await res.json()) as { content: { series: unknown[] }[] | null }
      const s = body.content?.[0]?.series ?? []
      return s.length ? s : null
    }, 15_000)
    assert.equal(got.length, 1)
    const [series] = got as { name: string; tags: object; values: unknown[][] }[]
    assert.deepEqual(
      [series!.name, series!.tags, series!.values[0]![1]],
      ['x_shop', { zone: 'eu' }, 42],
    )
  } finally {
    await agent.stop()
    await target.close()
  }
})
