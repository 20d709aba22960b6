/**
 * The studio's trace pages in a real headless Chromium, against an agent with the embedded
 * workspace: a nested trace
 * sent to the agent as an OTLP/JSON export is drawn as a waterfall with each span under its parent at the right depth, the trace list
 * finds it by trace id, the services page lists its services and the trace's log link filters
 * the logs page to it; a trace sent as a Datadog tracer's v0.4 msgpack is listed and drawn the
 * same way. Screenshots go to test-output/screenshots/.
 */
import assert from 'node:assert/strict'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import type { Page } from 'puppeteer-core'
import type { AgentProcess } from '../helpers/agent-process.js'
import { allRows } from '../helpers/agent-query.js'
import {
  browserSkip,
  launchBrowser,
  openPage,
  studioPage,
  screenshotDir,
  type TestBrowser,
} from '../helpers/browser.js'
import { startStudioAgent } from '../helpers/studio-agent.js'
import { poll } from '../helpers/workspace.js'
import { toV04, type FixtureSpan } from '../helpers/ddtrace.js'

const TRACE = '5b8efff798038103d269b633813fc60c'

let agent: AgentProcess
let browser: TestBrowser
let page: Page
let base: string

/** [span, parent, service, name, start offset ms, duration ms]; ids are 8 bytes of hex. */
const SPANS: [string, string, string, string, number, number][] = [
  ['a1', '', 'shop', 'GET /cart', 0, 120],
  ['b1', 'a1', 'shop', 'load cart', 5, 60],
  ['c1', 'b1', 'cartdb', 'SELECT cart', 10, 40],
  ['b2', 'a1', 'pricing', 'price items', 70, 45],
  ['c2', 'b2', 'pricing', 'cache lookup', 75, 10],
]
const hex = (id: string) => (id ? id.repeat(8) : '')
const DD_TRACE = '777000000000000777'

/** A Datadog tracer's trace of two spans (a request and the Redis call under it), as v0.4. */
function ddtraceBody(t0: number): Uint8Array {
  const span = (id: string, parent: string, o: Partial<FixtureSpan>): FixtureSpan => ({
    service: 'dd-shop',
    name: 'web.request',
    resource: 'GET /dd',
    trace_id: DD_TRACE,
    span_id: id,
    parent_id: parent,
    start: String(BigInt(t0) * 1_000_000n),
    duration: String(80_000_000),
    error: 0,
    meta: { 'http.method': 'GET', component: 'express' },
    metrics: {},
    type: 'web',
    ...o,
  })
  const start = String(BigInt(t0 + 10) * 1_000_000n)
  return toV04([
    [
      span('11', '0', {}),
      span('22', '11', {
        name: 'redis.command',
        resource: 'GET cart',
        start,
        duration: '20000000',
        type: 'redis',
        meta: { component: 'ioredis' },
      }),
    ],
  ])
}

/** The trace as one OTLP/JSON export, a resource per service, as an SDK sends it. */
function exportBody(t0: number): string {
  const ns = (ms: number) => String(BigInt(t0 + ms) * 1_000_000n)
  const resourceSpans = [...new Set(SPANS.map((s) => s[2]))].map((service) => ({
    resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] },
    scopeSpans: [
      {
        spans: SPANS.filter((s) => s[2] === service).map(([id, parent, , name, at, ms]) => ({
          traceId: TRACE,
          spanId: hex(id),
          parentSpanId: hex(parent),
          name,
          kind: 1,
          startTimeUnixNano: ns(at),
          endTimeUnixNano: ns(at + ms),
          attributes: [{ key: 'cart.items', value: { intValue: '3' } }],
          events: [{ timeUnixNano: ns(at + 1), name: `${id}-event` }],
          status: { code: id === 'c2' ? 2 : 1 },
        })),
      },
    ],
  }))
  return JSON.stringify({ resourceSpans })
}

const count = async (q: string) => (await allRows(agent.url, q)).length
const goto = (hash: string) => openPage(page, base, hash)

const shot = (name: string) =>
  page.screenshot({ path: path.join(screenshotDir(), `ui-${name}.png`), fullPage: true })

describe('the studio trace pages in a browser', { skip: browserSkip() }, () => {
  before(async () => {
    const started = await startStudioAgent()
    ;({ agent, base } = started)
    const key = started.key
    const t0 = Date.now() - 60_000
    const log = `app,service=shop,status=info,trace_id=${TRACE} message="cart loaded" ${t0 * 1e6}`
    for (const [route, body, type] of [
      ['v1/traces', exportBody(t0), 'application/json'],
      ['v1/write/logging', log, 'text/plain'],
      ['v0.4/traces', ddtraceBody(t0), 'application/msgpack'],
    ] as const) {
      const headers = { 'Content-Type': type }
      const res = await fetch(`${agent.url}/${route}`, { method: 'POST', body, headers })
      assert.equal(res.status, 200, await res.text())
    }
    await poll(async () => ((await count('T::opentelemetry:(span_id)')) === 5 ? true : null))
    await poll(async () => ((await count('L::app:(message)')) === 1 ? true : null))
    await poll(async () => ((await count('T::ddtrace:(span_id)')) === 2 ? true : null))
    browser = await launchBrowser()
    page = await studioPage(browser, base, key, 800)
  })
  after(async () => {
    await browser?.close()
    await agent?.stop()
  })

  test('the waterfall puts each span under its parent at its depth', async () => {
    await goto(`#/trace/${TRACE}`)
    const rows = await page.$$eval('#waterfall tbody tr', (e) =>
      e.map((r) => `${r.getAttribute('data-span')}:${r.getAttribute('data-depth')}`),
    )
    assert.deepEqual(
      rows,
      ['a1:0', 'b1:1', 'c1:2', 'b2:1', 'c2:2'].map((r) => `${hex(r.slice(0, 2))}${r.slice(2)}`),
    )
    const bars = await page.$$eval('#waterfall .bar', (e) => e.map((b) => b.getAttribute('style')))
    assert.equal(bars[0], 'left:0.000%;width:100.000%')
    assert.equal(bars[3], 'left:58.333%;width:37.500%')
    await page.click('#waterfall tbody tr:nth-child(5)')
    assert.match(await page.$eval('#span-fields', (e) => e.textContent ?? ''), /servicepricing/)
    assert.equal(
      await page.$eval('#span-attrs', (e) => e.textContent),
      `cart.items="3" trace_id="${TRACE}"`,
    )
    assert.equal(await page.$eval('#span-events', (e) => e.textContent), 'c2-event')
    await shot('trace')
    await page.click('#trace-logs')
    await page.waitForSelector('#log-rows tr')
    const logs = await page.$$eval('#log-rows td.msg', (e) => e.map((td) => td.textContent))
    assert.deepEqual(logs, ['cart loaded'])
  })

  test('the trace list finds the trace by its id', async () => {
    await goto(`#/traces?trace_id=${TRACE}&range=1h`)
    const rows = await page.$$eval('#traces tbody tr', (e) =>
      e.map((r) => [...r.querySelectorAll('td')].slice(1).map((td) => td.textContent)),
    )
    assert.deepEqual(rows, [['shop', 'GET /cart', '120.00 ms', 'ok', TRACE]])
    await goto('#/traces?trace_id=ffff&range=1h')
    assert.equal(await page.$eval('#trace-count', (e) => e.textContent), 'No trace matches.')
    await goto('#/traces?range=1h&min_ms=100')
    await page.waitForSelector('#traces')
    await shot('traces')
  })

  test('the services page shows each service with its error rate', async () => {
    await goto('#/services?range=1h')
    const rows = await page.$$eval('#services tr', (e) =>
      e.slice(1).map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)),
    )
    assert.deepEqual(
      rows.map((r) => [r[0], r[2], r[6]]),
      [
        ['cartdb', '0.0 %', '1'],
        ['dd-shop', '0.0 %', '2'],
        ['pricing', '50.0 %', '2'],
        ['shop', '0.0 %', '2'],
      ],
    )
    assert.equal(rows[3][3], '90.00 ms') // the median of 120 ms and 60 ms
    await shot('services')
  })

  test('a Datadog tracer trace is listed and drawn like an OpenTelemetry one', async () => {
    await goto(`#/traces?trace_id=${DD_TRACE}&range=1h`)
    const rows = await page.$$eval('#traces tbody tr', (e) =>
      e.map((r) => [...r.querySelectorAll('td')].slice(1).map((td) => td.textContent)),
    )
    assert.deepEqual(rows, [['dd-shop', 'GET /dd', '80.00 ms', 'ok', DD_TRACE]])
    await goto(`#/trace/${DD_TRACE}`)
    const spans = await page.$$eval('#waterfall tbody tr', (e) =>
      e.map((r) => `${r.getAttribute('data-span')}:${r.getAttribute('data-depth')}`),
    )
    assert.deepEqual(spans, ['11:0', '22:1'])
    await page.click('#waterfall tbody tr:nth-child(2)')
    assert.equal(await page.$eval('#span-attrs', (e) => e.textContent), 'component="ioredis"')
    await shot('trace-ddtrace')
  })
})
