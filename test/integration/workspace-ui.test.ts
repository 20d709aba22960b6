/**
 * The workspace UI in a real headless Chromium, against an agent with its host inputs on and
 * the embedded workspace: log in with the API key, run a DQL query and see one line per BY
 * group, open the collecting host's page (charts, processes, a label saved through the labels
 * API), page through logs (rows sharing a millisecond included) with no row lost or repeated,
 * create a dashboard with two charts that are drawn again after a reload, see the chart of a
 * dashboard made through the Open API from a documented template, and see a RUM
 * application's page views and an error's mapped stack. The host's process table stays one
 * line per process within one screen; the logs histogram counts what DQL counts. A bad key
 * reaches no page and no data; a page on another port of the same host cannot change state
 * through the session. Screenshots of each page go to test-output/screenshots/.
 */
import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import type { Page } from 'puppeteer-core'
import type { AgentProcess } from '../helpers/agent-process.js'
import { allRows } from '../helpers/agent-query.js'
import { browserSkip, openPage, screenshotDir, type TestBrowser } from '../helpers/browser.js'
import { openStudio } from '../helpers/studio.js'
import { poll } from '../helpers/workspace.js'

const HOST = 'ui-it'
const LOG_ROWS = 130

let agent: AgentProcess
let browser: TestBrowser
let page: Page
let base: string
let key: string

/** The agent's own DQL route (it forwards with its token): the rows of the first series. */
const rows = (q: string) => allRows(agent.url, q)

/** 3 hosts of `ui_demo` metrics and LOG_ROWS log lines, five to a millisecond. */
async function writeData(): Promise<void> {
  const now = Date.now()
  const metric = ['h1', 'h2', 'h3'].flatMap((h, i) =>
    [5, 4, 3, 2, 1].map((m) => `ui_demo,host=${h} v=${i * 10 + m} ${(now - m * 60_000) * 1e6}`),
  )
  const logs = Array.from({ length: LOG_ROWS }, (_, i) => {
    const ns = BigInt(now - 60_000 + Math.floor(i / 5)) * 1_000_000n + BigInt(i % 5)
    return `uiapp,service=web,status=${i % 3 ? 'info' : 'error'} message="line-${String(i).padStart(3, '0')}" ${ns}`
  })
  for (const [category, lines] of [
    ['metric', metric],
    ['logging', logs],
  ] as const) {
    const res = await fetch(`${agent.url}/v1/write/${category}`, {
      method: 'POST',
      body: lines.join('\n'),
    })
    assert.equal(res.status, 200)
  }
  await poll(async () => ((await rows('L::uiapp:(message)')).length === LOG_ROWS ? true : null))
  await poll(async () => ((await rows('M::ui_demo:(v)')).length === 15 ? true : null))
  await poll(async () => ((await rows('M::cpu:(usage_total)')).length >= 1 ? true : null))
}

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: path.join(screenshotDir(), `ui-${name}.png`), fullPage: true })
}

async function openOpenApi<T>(route: string): Promise<T> {
  const res = await fetch(`${base}/api/v1/${route}`, { headers: { 'DF-API-KEY': key } })
  return ((await res.json()) as { content: T }).content
}

async function setValue(selector: string, value: string): Promise<void> {
  await page.evaluate(
    `document.querySelector(${JSON.stringify(selector)}).value = ${JSON.stringify(value)}`,
  )
}

const goto = (hash: string) => openPage(page, base, hash)

const skip = browserSkip()

describe('the workspace UI in a browser', { skip }, () => {
  before(async () => {
    const env = {
      ENV_DEFAULT_ENABLED_INPUTS: 'cpu,mem,disk,net,hostobject,host_processes',
      ENV_HOSTNAME: HOST,
    }
    ;({ agent, browser, page, base, key } = await openStudio(
      env,
      (a) => ((agent = a), writeData()),
    ))
  })
  after(async () => {
    await browser?.close()
    await agent?.stop()
  })

  test('a bad key reaches no page and no data', async () => {
    await page.goto(`${base}/ui/login`)
    await page.type('input[name=key]', 'not-a-key')
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')])
    assert.match(await page.$eval('.error', (e) => e.textContent ?? ''), /not valid/)
    await shot('login-refused')
    for (const p of ['/ui/', '/ui/#/hosts', '/ui/app/main.js', '/ui/vendor/uPlot.esm.js']) {
      await page.goto(`${base}${p}`)
      assert.equal(new URL(page.url()).pathname, '/ui/login', p)
    }
    const answers = await page.evaluate(async () =>
      Promise.all(
        ['/ui/api/v1/validate', '/ui/api/v1/object/host/list', '/ui/api/sources'].map(
          async (u) => (await fetch(u)).status,
        ),
      ),
    )
    assert.deepEqual(answers, [403, 403, 403])
  })

  test('log in and run a DQL query: one line per BY group, SQL on demand', async () => {
    await page.goto(`${base}/ui/login`)
    await page.type('input[name=key]', key)
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')])
    assert.equal(new URL(page.url()).pathname, '/ui/')
    const cookies = await browser.browser.cookies()
    const c = cookies.find((x) => x.name === 'ferry_ui')!
    assert.deepEqual([c.httpOnly, c.sameSite, c.path], [true, 'Strict', '/ui'])
    assert.equal(await page.evaluate('document.cookie'), '')
    await goto('#/explore')
    await setValue('#dql', '')
    await page.type('#dql', 'M::ui_demo:(avg(v)) BY host')
    await page.click('#explain')
    await page.click('#run')
    await page.waitForSelector('#result[data-lines="3"] .uplot')
    const legend = await page.$$eval('#result .u-legend .u-series', (e) => e.length)
    assert.equal(legend, 4) // the time column and three hosts
    assert.match(await page.$eval('#sql', (e) => e.textContent ?? ''), /SELECT/)
    await shot('explore')
    // The pickers list the measurement and its field and tag from the catalog, and write the query.
    await page.waitForSelector('#pickers select[name=pick-source] option[value="M::ui_demo"]')
    await page.select('#pickers select[name=pick-source]', 'M::ui_demo')
    await page.waitForSelector('#pickers select[name=pick-tag] option[value="host"]')
    const fields = await page.$$eval('#pickers select[name=pick-field] option', (e) =>
      e.map((o) => o.textContent),
    )
    assert.deepEqual(fields, ['v'])
    await page.select('#pickers select[name=pick-tag]', 'host')
    await page.click('#pick-use')
    await page.waitForFunction(
      `document.getElementById('dql').value === 'M::ui_demo:(avg(v)) BY host'`,
    )
    await page.waitForSelector('#result[data-lines="3"] .uplot')
    await setValue('#dql', 'M::ui_demo:(avg(v) BY')
    await page.click('#run')
    await page.waitForSelector('#result pre.caret')
    const caret = await page.$eval('#result pre.caret', (e) => e.textContent ?? '')
    assert.match(caret, /^M::ui_demo:\(avg\(v\) BY\n *\^$/)
    await shot('explore-error')
  })

  test('the collecting host: list, charts, processes and a saved label', async () => {
    await poll(async () =>
      ((await openOpenApi<{ name: string }[] | null>('object/host/list')) ?? []).some(
        (h) => h.name === HOST,
      )
        ? true
        : null,
    )
    // Processes are collected on their own interval: the page lists what is stored when opened.
    await poll(
      async () =>
        // No content until the first process object is stored: ask again.
        ((await openOpenApi<unknown[] | null>(`object/process/list?host=${HOST}`))?.length ?? 0) > 0
          ? true
          : null,
      30_000,
    )
    await goto('#/hosts')
    assert.ok(
      (await page.$$eval('#hosts tr', (e) => e.map((r) => r.textContent))).some((t) =>
        t?.startsWith(HOST),
      ),
    )
    await shot('hosts')
    await goto(`#/host/${HOST}`)
    await page.waitForSelector('#processes tr:nth-child(2)')
    await page.waitForFunction("document.querySelectorAll('.grid .chart[data-lines]').length === 4")
    const cpuLines = await page.$eval('.grid .chart', (e) => e.getAttribute('data-lines'))
    assert.equal(cpuLines, '1')
    // One line per process, however long its command, in a box under one screen's height.
    const box = await page.$eval('.procs', (e) => e.getBoundingClientRect().height)
    assert.ok(box < page.viewport()!.height, `process table ${box}px high`)
    const tallest = await page.$$eval('#processes tr', (e) =>
      Math.max(...e.map((r) => r.getBoundingClientRect().height)),
    )
    assert.ok(tallest < 40, `a process row is ${tallest}px high`)
    await page.type('#labels input[name=label]', 'web-tier')
    await page.click('#labels form button[type=submit]')
    await page.waitForSelector('#labels .label')
    const hosts = await openOpenApi<{ name: string; labels: string[] }[]>(
      `object/host/list?name=${HOST}`,
    )
    assert.deepEqual(hosts[0].labels, ['web-tier'])
    await shot('host')
  })

  test('logs page through all rows, newest first, none lost or repeated', async () => {
    await goto('#/logs?source=uiapp&range=24h')
    await page.waitForSelector('#log-rows tr')
    while (!(await page.$eval('#more', (b) => b.hasAttribute('disabled')))) {
      const n = await page.$$eval('#log-rows tr', (e) => e.length)
      await page.click('#more')
      await page.waitForFunction(
        // The button is also disabled while the page is loading: wait for rows or the final count.
        `document.querySelectorAll('#log-rows tr').length > ${n} || /no more|failed/.test(document.getElementById('log-count').textContent)`,
      )
    }
    const shown = await page.$$eval('#log-rows td.msg', (e) => e.map((td) => td.textContent ?? ''))
    const expected = Array.from(
      { length: LOG_ROWS },
      (_, i) => `line-${String(i).padStart(3, '0')}`,
    )
    assert.equal(shown.length, LOG_ROWS)
    assert.deepEqual([...shown].sort(), expected)
    assert.equal(shown[0], expected.at(-1))
    // The histogram counts what a DQL count(*) counts.
    await page.waitForSelector('#log-histogram[data-total]')
    const total = await page.$eval('#log-histogram', (e) => Number(e.getAttribute('data-total')))
    const [[, counted]] = await rows('L::uiapp:(count(*))')
    assert.deepEqual([total, counted], [LOG_ROWS, LOG_ROWS])
    await page.click('#log-rows tr:nth-child(3)')
    const detail = await page.$eval('#log-detail', (e) => e.textContent ?? '')
    assert.match(detail, /service\s*web/)
    await shot('logs')
  })

  test('a dashboard with two charts is saved and drawn again after a reload', async () => {
    await goto('#/dashboards')
    await page.type('#create-dashboard input[name=name]', 'UI test board')
    await page.click('#create-dashboard button[type=submit]')
    await page.waitForSelector('#add-chart')
    await addChart('Demo by host', 'M::ui_demo:(avg(v)) BY host')
    await addChart('CPU', 'M::cpu:(avg(usage_total))')
    const id = decodeURIComponent(new URL(page.url()).hash.split('/')[2].split('?')[0])
    await page.goto(`${base}/ui/#/dashboard/${id}`)
    await page.reload()
    await page.waitForFunction("document.querySelectorAll('#dashboard-grid .uplot').length === 2")
    const lines = await page.$$eval('#dashboard-grid .chart', (e) =>
      e.map((c) => c.getAttribute('data-lines')),
    )
    assert.deepEqual(lines, ['3', '1'])
    const stored = await openOpenApi<{ extend: { charts: { title: string }[] } }>(
      `dashboard/${id}/get`,
    )
    assert.deepEqual(
      stored.extend.charts.map((c) => c.title),
      ['Demo by host', 'CPU'],
    )
    await shot('dashboard')
  })

  test('a dashboard made through the Open API from a documented template is drawn', async () => {
    const chart = {
      name: 'From template',
      type: 'sequence',
      pos: { h: 10, i: 0, w: 12, x: 0, y: 0 },
      queries: [{ qtype: 'dql', query: { q: 'M::ui_demo:(avg(v)) BY host' } }],
    }
    const res = await fetch(`${base}/api/v1/dashboards/create`, {
      method: 'POST',
      headers: { 'DF-API-KEY': key, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: 'Template board',
        templateInfo: { main: { charts: [chart], groups: [], type: 'template', vars: [] } },
      }),
    })
    const { uuid } = ((await res.json()) as { content: { uuid: string } }).content
    await goto(`#/dashboard/${uuid}`)
    await page.waitForFunction("document.querySelectorAll('#dashboard-grid .uplot').length === 1")
    const lines = await page.$$eval('#dashboard-grid .chart', (e) =>
      e.map((c) => c.getAttribute('data-lines')),
    )
    assert.deepEqual(lines, ['3'])
    assert.equal(await page.$eval('#dashboard-grid h3', (e) => e.textContent), 'From template')
  })

  test('a page on another port of the same host cannot create a dashboard with the session', async () => {
    // Logged in by the tests above: the browser holds the SameSite=Strict cookie, which a
    // same-site page (same host, other port) sends along.
    assert.ok((await browser.browser.cookies()).some((c) => c.name === 'ferry_ui'))
    const target = `${base}/ui/api/v1/dashboard/create`
    const script = `fetch(${JSON.stringify(target)}, { method: 'POST', mode: 'no-cors', credentials: 'include', body: '{"name":"cross-port"}' }).then(() => (document.title = 'sent'), () => (document.title = 'failed'))`
    const evil = http.createServer((_, res) => {
      res.setHeader('Content-Type', 'text/html')
      res.end(`<!doctype html><title>evil</title><script>${script}</script>`)
    })
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve))
    const other = await browser.browser.newPage()
    try {
      await other.goto(`http://127.0.0.1:${(evil.address() as AddressInfo).port}/`)
      await other.waitForFunction("document.title !== 'evil'")
      const list = await openOpenApi<{ name: string }[]>('dashboard/list?pageSize=100')
      assert.deepEqual(
        list.filter((d) => d.name === 'cross-port'),
        [],
      )
      // The UI's own change goes through (the dashboard test above made one the same way).
      assert.ok(list.some((d) => d.name === 'UI test board'))
      // The request did arrive, with the cookie, and was refused for its origin.
      const metrics = await (await fetch(`${base}/metrics`)).text()
      assert.match(metrics, /rejected_requests_total\{code="crossOriginRefused"\} 1$/m)
    } finally {
      await other.close()
      evil.close()
    }
  })

  test('RUM: page views by page, an error with its mapped stack', async () => {
    const ns = (Date.now() - 30_000) * 1e6
    const tags = 'app_id=ui_app,sdk_name=df_web_rum_sdk,env=prod,version=1.0.0'
    const mapped = Buffer.from('Error: boom\n    at render (src/app.ts:12:3)').toString('base64')
    const lines = [
      `view,${tags},view_name=/home view_id="v1" ${ns}`,
      `view,${tags},view_name=/home view_id="v2" ${ns + 1}`,
      `view,${tags},view_name=/cart view_id="v3" ${ns + 2}`,
      `error,${tags},view_name=/cart error_message="boom",error_stack="at a (app.min.js:1:99)",` +
        `error_stack_source_base64="${mapped}" ${ns + 3}`,
    ]
    const res = await fetch(`${agent.url}/v1/write/rum`, { method: 'POST', body: lines.join('\n') })
    assert.equal(res.status, 200)
    await poll(async () => ((await rows('R::error:(error_message)')).length === 1 ? true : null))
    await poll(async () => ((await rows('R::view:(view_id)')).length === 3 ? true : null))
    await goto('#/rum?app=ui_app&range=1h')
    await page.waitForSelector('#rum-views[data-groups="2"] .bucket')
    await page.click('#rum-errors tr')
    const stack = await page.$eval('#mapped-stack', (e) => e.textContent ?? '')
    assert.equal(stack, 'Error: boom\n    at render (src/app.ts:12:3)')
    assert.equal(
      await page.$eval('#raw-stack', (e) => e.textContent ?? ''),
      'at a (app.min.js:1:99)',
    )
    await shot('rum')
  })
})

async function addChart(title: string, dql: string): Promise<void> {
  const before = await page.$$eval('#dashboard-grid .panel', (e) => e.length).catch(() => 0)
  await page.type('#add-chart input[name=title]', title)
  await page.type('#add-chart input[name=dql]', dql)
  await page.click('#add-chart button[type=submit]')
  await page.waitForFunction(
    `document.querySelectorAll('#dashboard-grid .panel').length === ${before + 1}`,
  )
}
