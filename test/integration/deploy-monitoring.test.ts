/**
 * The shipped Grafana dashboard and Prometheus alert rules (deploy/): promtool accepts the
 * rules, and every dashboard query and rule expression runs without error against a real
 * Prometheus scraping a real agent, naming only metrics the agent exposes.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import { test } from 'node:test'
import { parse } from 'yaml'
import { startAgent } from '../helpers/agent-process.js'
import { hasCommand } from '../helpers/commands.js'
import { startPrometheus } from '../helpers/prometheus.js'
import { SinkServer, waitFor } from '../helpers/sink-server.js'

const RULES = new URL('../../deploy/prometheus/ferry-alerts.yml', import.meta.url).pathname
const DASHBOARD = new URL('../../deploy/grafana/ferry-dashboard.json', import.meta.url).pathname

interface Panel {
  title: string
  targets?: { expr: string }[]
}

function dashboardQueries(): string[] {
  const d = JSON.parse(fs.readFileSync(DASHBOARD, 'utf8')) as { panels: Panel[] }
  // Grafana's variables, as Grafana would fill them for "All" instances.
  return d.panels.flatMap((p) =>
    (p.targets ?? []).map((t) =>
      t.expr.replaceAll('$instance', '.+').replaceAll('$__rate_interval', '1m'),
    ),
  )
}

function ruleExpressions(): string[] {
  const doc = parse(fs.readFileSync(RULES, 'utf8')) as { groups: { rules: { expr: string }[] }[] }
  return doc.groups.flatMap((g) => g.rules.map((r) => r.expr))
}

test('promtool accepts the alert rules', (t) => {
  if (!hasCommand('promtool')) return t.skip('promtool not installed (Debian package prometheus)')
  const r = spawnSync('promtool', ['check', 'rules', RULES], { encoding: 'utf8' })
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`)
  assert.match(r.stdout, /SUCCESS: 7 rules found/)
})

test('every dashboard query and rule runs on a real Prometheus scraping a real agent', async (t) => {
  if (!hasCommand('prometheus')) return t.skip('prometheus not installed (Debian package)')
  const sink = new SinkServer()
  const agent = await startAgent({
    ENV_DATAWAY: await sink.start(),
    ENV_WORKSPACE_EMBEDDED: 'false',
  })
  const prom = await startPrometheus(agent.url.replace('http://', ''))
  try {
    await fetch(`${agent.url}/v1/write/metric`, { method: 'POST', body: 'cpu usage=1' })
    await waitFor(async () => (await prom.query('ferry_build_info')) === 1, 30_000, 'a scrape')
    const exposed = await (await fetch(`${agent.url}/metrics`)).text()
    const exprs = [...dashboardQueries(), ...ruleExpressions()]
    assert.ok(exprs.length >= 20, `${exprs.length} expressions`)
    for (const expr of exprs) {
      const res = await fetch(`${prom.url}/api/v1/query?query=${encodeURIComponent(expr)}`)
      const body = (await res.json()) as { status: string; error?: string }
      assert.equal(body.status, 'success', `${expr}: ${body.error}`)
      for (const [name] of expr.matchAll(/\bferry_[a-z0-9_]+/g)) {
        const family = name.replace(/_(bucket|sum|count)$/, '')
        assert.match(exposed, new RegExp(`^# TYPE ${family} `, 'm'), `${name} in ${expr}`)
      }
    }
    // The data behind the panels is there, not merely parseable.
    assert.equal(await prom.query('sum(ferry_write_points_total)'), 1)
    assert.equal(await prom.query('count(ferry_buffer_capacity_bytes)'), 10)
  } finally {
    await prom.stop()
    await agent.stop()
    await sink.stop()
  }
})
