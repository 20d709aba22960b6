/**
 * agg_metric in the real agent (child process, decode workers, real upstream): log lines run
 * a script that feeds a bucket from their JSON; the bucket's metric point is uploaded under
 * the metric category with the agent's host tag once on_count values (two per line) arrived,
 * and counted in /metrics.
 */
import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { kv } from '../helpers/pipeline.js'
import { startPipelineAgent } from '../helpers/pipeline-agent.js'
import { waitFor } from '../helpers/sink-server.js'

const cleanup: (() => Promise<unknown>)[] = []
after(async () => {
  for (const f of cleanup.reverse()) await f()
})

const SCRIPT = `agg_create("req_agg", on_interval="1h", on_count=6, const_tags={"from":"ferry"})
d = load_json(_)
cost = d["cost"]
agg_metric("req_agg", "cost_sum", "sum", ["host", "service"], "cost")
agg_metric("req_agg", "cost_max", "max", ["host", "service"], "cost")
`

test('agg_metric in the agent: log lines become one uploaded metric point', async () => {
  const { agent, sink } = await startPipelineAgent(
    { 'web.p': SCRIPT },
    { ENV_PIPELINE_TIMEZONE: 'UTC', ENV_HOSTNAME: 'agg-host' },
    cleanup,
  )
  // Separate writes: the bucket on the main thread takes operations from every task.
  for (const cost of [3, 7, 5]) {
    const body = `web,service=api message="{\\"cost\\": ${cost}}"`
    const res = await fetch(`${agent.url}/v1/write/logging`, { method: 'POST', body })
    assert.equal(res.status, 200, await res.text())
  }
  const metric = () => sink.received.filter((r) => r.category === 'metric')
  await waitFor(() => metric().length > 0, 30_000, 'the bucket point uploaded')
  const points = metric().flatMap((r) => r.points)
  assert.equal(points.length, 1)
  assert.equal(points[0].name, 'req_agg')
  const host = kv(points[0]).host
  assert.equal(typeof host, 'string')
  assert.deepEqual(kv(points[0]), {
    host,
    service: 'api',
    from: 'ferry',
    cost_sum: 15,
    cost_max: 7,
  })
  await waitFor(() => sink.points().length >= 4, 30_000, 'the logs uploaded too')
  const text = await (await fetch(`${agent.url}/metrics`)).text()
  assert.match(text, /ferry_pipeline_agg_points_total\{category="metric"\} 1/)
})
