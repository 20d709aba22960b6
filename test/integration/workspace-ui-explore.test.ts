/**
 * Explore and dashboards in a real headless Chromium, against an agent with the embedded
 * workspace and two hosts' metrics written every 10 s over the last 10 minutes (back-dated):
 * the pickers and the query box's completion list the measurement and fields just written; a
 * `[1h]` query under "last hour" draws at least 30 points per series; values read with units;
 * dragging over the chart sets an absolute range that the URL keeps through a reload; a
 * dashboard with a `host` variable draws the first host on first load; its table values are
 * formatted; rename, a removed variable, a chart's options and a new order persist after a
 * reload. Screenshots go to test-output/screenshots/.
 */
import assert from 'node:assert/strict'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import type { Page } from 'puppeteer-core'
import type { AgentProcess } from '../helpers/agent-process.js'
import { browserSkip, screenshotDir, type TestBrowser } from '../helpers/browser.js'
import { openStudio } from '../helpers/studio.js'
import { poll } from '../helpers/workspace.js'

const HOSTS = ['hA', 'hB']
const STEPS = 61 // every 10 s over 10 minutes, both ends included

let agent: AgentProcess
let browser: TestBrowser
let page: Page
let base: string
let key: string

async function count(q: string): Promise<number> {
  const res = await fetch(`${agent.url}/v1/query/raw`, {
    method: 'POST',
    body: JSON.stringify({ queries: [{ query: q, disable_slimit: true }] }),
  })
  const body = (await res.json()) as { content: { series: { values: unknown[][] }[] }[] | null }
  return (body.content?.[0]?.series ?? []).reduce((n, s) => n + s.values.length, 0)
}

async function writeData(): Promise<void> {
  const now = Date.now()
  const lines = HOSTS.flatMap((host, h) =>
    Array.from({ length: STEPS }, (_, i) => {
      const ns = BigInt(now - (STEPS - 1 - i) * 10_000) * 1_000_000n
      return `ui_ten,host=${host} v=${h * 40 + (i % 7) + 1.123456},rx_bytes=${1_500_000 + i * 1000}i ${ns}`
    }),
  )
  const res = await fetch(`${agent.url}/v1/write/metric`, {
    method: 'POST',
    body: lines.join('\n'),
  })
  assert.equal(res.status, 200)
  await poll(async () => ((await count('M::ui_ten:(v)')) === STEPS * 2 ? true : null))
}

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: path.join(screenshotDir(), `ui-${name}.png`), fullPage: true })
}

async function openApi<T>(route: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}/api/v1/${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'DF-API-KEY': key, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return ((await res.json()) as { content: T }).content
}

async function goto(hash: string): Promise<void> {
  await page.evaluate("document.getElementById('main')?.removeAttribute('data-ready')")
  await page.goto(`${base}/ui/${hash}`)
  await page.waitForSelector('main[data-ready]')
}

async function reload(): Promise<void> {
  await page.reload()
  await page.waitForSelector('main[data-ready]')
}

const hashParams = () => new URLSearchParams(new URL(page.url()).hash.split('?')[1] ?? '')

const text = (selector: string) => page.$eval(selector, (e) => e.textContent ?? '')

/** A form control's value (the tests compile without DOM types). */
const valueOf = (selector: string) =>
  page.$eval(selector, (e) => (e as unknown as { value: string }).value)

/** Waits until `n` charts of the dashboard are drawn (a table has no lines to count). */
async function chartsDrawn(n: number): Promise<void> {
  await page.waitForFunction(
    `[...document.querySelectorAll('#dashboard-grid .chart')].filter((c) => c.childElementCount).length === ${n}`,
  )
}

async function clear(selector: string): Promise<void> {
  await page.$eval(selector, (e) => void ((e as unknown as { value: string }).value = ''))
}

const skip = browserSkip()

describe('Explore and dashboards in a browser', { skip }, () => {
  before(async () => {
    ;({ agent, browser, page, base, key } = await openStudio({}, (a) => ((agent = a), writeData())))
    page.setDefaultTimeout(60_000)
    await page.goto(`${base}/ui/login`)
    await page.type('input[name=key]', key)
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')])
  })
  after(async () => {
    await browser?.close()
    await agent?.stop()
  })

  test('the pickers and the completion list the measurement and fields just written', async () => {
    await goto('#/explore')
    await page.waitForSelector('#pickers select[name=pick-source] option[value="M::ui_ten"]')
    await page.select('#pickers select[name=pick-source]', 'M::ui_ten')
    await page.waitForSelector('#pickers select[name=pick-tag] option[value="host"]')
    const fields = await page.$$eval('#pickers select[name=pick-field] option', (e) =>
      e.map((o) => o.textContent),
    )
    assert.deepEqual(fields, ['rx_bytes', 'v'])
    await clear('#dql')
    await page.type('#dql', 'M::ui_t')
    await page.waitForSelector('#suggest li')
    assert.deepEqual(await page.$$eval('#suggest li', (e) => e.map((l) => l.textContent)), [
      'M::ui_ten',
    ])
    await page.keyboard.press('Enter')
    assert.equal(await valueOf('#dql'), 'M::ui_ten:()')
    await page.type('#dql', 'rx')
    await page.waitForFunction(`document.querySelector('#suggest li')?.textContent === 'rx_bytes'`)
    await shot('explore-completion')
    await page.keyboard.press('Tab')
    assert.equal(await valueOf('#dql'), 'M::ui_ten:(rx_bytes)')
  })

  test('[1h] under "last hour" draws at least 30 points per series, with units', async () => {
    const q = 'M::ui_ten:(avg(v), avg(rx_bytes)) [1h] BY host'
    await goto(`#/explore?${new URLSearchParams({ q, range: '1h' })}`)
    await page.waitForSelector('#result[data-lines="4"] .uplot')
    const points = Number(await page.$eval('#result', (e) => e.getAttribute('data-points')))
    assert.ok(points >= 30, `${points} points in the sparsest series`)
    // The legend reads without hovering, bytes in binary units, plain numbers to 2 decimals.
    const stats = await page.$$eval('#result .legend-stats tr', (rows) =>
      rows.slice(1).map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)),
    )
    const bytes = stats.find((r) => r[0]?.startsWith('avg(rx_bytes) {host=hA}'))!
    assert.match(bytes[1]!, /^1\.\d MiB$/)
    const plain = stats.find((r) => r[0]?.startsWith('avg(v) {host=hA}'))!
    for (const v of plain.slice(1)) assert.match(v!, /^\d+(\.\d{1,2})?$/)
    await shot('explore')
  })

  test('a drag over the chart sets an absolute range that survives a reload', async () => {
    await goto(
      `#/explore?${new URLSearchParams({ q: 'M::ui_ten:(avg(v)) BY host', range: '15m' })}`,
    )
    await page.waitForSelector('#result[data-lines="2"] .uplot')
    const over = (await page.$('#result .u-over'))!
    const box = (await over.boundingBox())!
    const y = box.y + box.height / 2
    await page.mouse.move(box.x + box.width * 0.4, y)
    await page.mouse.down()
    await page.mouse.move(box.x + box.width * 0.8, y, { steps: 8 })
    await page.mouse.up()
    await page.waitForFunction("location.hash.includes('from=')")
    const zoomed = hashParams()
    const [from, to] = [Number(zoomed.get('from')), Number(zoomed.get('to'))]
    // 40% of 15 minutes, give or take the axis padding.
    assert.ok(Math.abs(to - from - 360_000) < 60_000, `zoomed to ${to - from} ms`)
    assert.equal(zoomed.get('range'), null)
    await page.waitForSelector('#result[data-lines="2"] .uplot')
    await reload()
    await page.waitForSelector('#result[data-lines="2"] .uplot')
    const again = hashParams()
    assert.deepEqual([again.get('from'), again.get('to')], [String(from), String(to)])
    assert.equal(await valueOf('select[name=range]'), 'custom')
    const shown = await valueOf('input[name=from]')
    assert.equal(new Date(shown).getTime(), Math.floor(from / 1000) * 1000)
    await shot('explore-zoomed')
  })

  test('a dashboard with a host variable draws the first host on first load', async () => {
    const d = await openApi<{ uuid: string }>('dashboard/create', {
      name: 'Hosts board',
      extend: {
        variables: [{ name: 'host', dql: "show_tag_value(from=['ui_ten'], keyin=['host'])" }],
        charts: [
          {
            title: 'v of the host',
            dql: "M::ui_ten:(avg(v)) {host = '#{host}'} BY host",
            type: 'line',
          },
          {
            title: 'received',
            dql: 'M::ui_ten:(last(rx_bytes), last(v)) [10m] BY host',
            type: 'table',
          },
          { title: 'v stacked', dql: 'M::ui_ten:(avg(v)) BY host', type: 'bar', stacked: true },
        ],
      },
    })
    await goto(`#/dashboard/${d.uuid}`)
    // The first panel's own chart: the stacked one (both hosts) may be drawn before it.
    await page.waitForSelector('#dashboard-grid .panel:nth-child(1) .chart[data-lines] .uplot')
    assert.equal(await valueOf('select[name=var-host]'), 'hA')
    const first = await page.$eval(
      '#dashboard-grid .panel:nth-child(1) .legend-stats',
      (e) => e.textContent ?? '',
    )
    assert.match(first, /avg\(v\) \{host=hA\}/)
    assert.doesNotMatch(first, /hB/)
    // Table values are formatted: no run of digits after a point, bytes in binary units.
    await page.waitForSelector('#dashboard-grid .panel:nth-child(2) table.rows td.num')
    const cells = await page.$$eval('#dashboard-grid .panel:nth-child(2) td.num', (e) =>
      e.map((td) => td.textContent ?? ''),
    )
    assert.ok(cells.length >= 4, cells.join(' '))
    for (const c of cells) assert.match(c, /^\d+(\.\d{1,2})?( MiB)?$/)
    await page.waitForFunction("document.querySelectorAll('#dashboard-grid .uplot').length === 2")
    assert.equal(hashParams().get('var-host'), 'hA')
    await shot('dashboard')
  })

  test('rename, a removed variable, chart options and a new order persist after a reload', async () => {
    const list = await openApi<{ uuid: string; name: string }[]>('dashboard/list?pageSize=100')
    const id = list.find((d) => d.name === 'Hosts board')!.uuid
    await goto(`#/dashboard/${id}?edit=1`)
    await page.waitForSelector('#rename-dashboard')
    await clear('input[name=dashboard-name]')
    await page.type('input[name=dashboard-name]', 'Renamed board')
    await page.click('#rename-dashboard button[type=submit]')
    await page.waitForFunction(
      `document.querySelector('h1')?.textContent.startsWith('Renamed board')`,
    )
    await page.click('button[aria-label="remove variable host"]')
    await page.waitForFunction("!document.querySelector('select[name=var-host]')")
    // Each save draws the page again, and a chart drawn moves the panels after it: a click
    // aimed before the charts are drawn can land where a button no longer is.
    await chartsDrawn(3)
    await page.click('button[aria-label="move chart 3 up"]')
    await page.waitForFunction(
      `document.querySelector('#dashboard-grid .panel:nth-child(2) h3')?.textContent.startsWith('v stacked')`,
    )
    await chartsDrawn(3)
    await page.click('button[aria-label="edit chart 1"]')
    await page.waitForSelector('#edit-chart')
    await page.select('#edit-chart select[name=unit]', 'percent')
    await page.type('#edit-chart input[name=decimals]', '1')
    await page.type('#edit-chart input[name=max]', '100')
    await page.click('#edit-chart button[type=submit]')
    await page.waitForFunction("!document.getElementById('edit-chart')")
    // Every chart drawn before the picture is taken.
    await chartsDrawn(3)
    await shot('dashboard-edit')
    await goto(`#/dashboard/${id}`)
    await reload()
    await page.waitForSelector('#dashboard-grid .chart[data-lines] .uplot')
    assert.match(await text('h1'), /^Renamed board/)
    assert.equal(await page.$('select[name=var-host]'), null)
    const titles = await page.$$eval('#dashboard-grid h3', (e) => e.map((h) => h.textContent))
    assert.deepEqual(titles, ['v of the host', 'v stacked', 'received'])
    const stored = await openApi<{
      name: string
      extend: {
        variables: unknown[]
        charts: { title: string; unit?: string; decimals?: number; max?: number }[]
      }
    }>(`dashboard/${id}/get`)
    assert.equal(stored.name, 'Renamed board')
    assert.deepEqual(stored.extend.variables, [])
    const c = stored.extend.charts[0]
    assert.deepEqual([c.title, c.unit, c.decimals, c.max], ['v of the host', 'percent', 1, 100])
  })
})
