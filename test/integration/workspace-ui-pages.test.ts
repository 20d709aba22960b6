/**
 * The hosts, host, logs and RUM pages in a real headless Chromium over data written for the
 * test (no host inputs run, so every figure is known): the hosts list shows the latest metrics,
 * not the HOST object's, and marks a host whose object is 12 minutes old stale; a host with 200
 * processes keeps its table under one screen, top by CPU or by memory, a page at a time, the
 * whole command on a click; the logs histogram counts what DQL counts, a field's top values
 * are DQL's and a click filters the rows; the RUM page shows views, errors and p75 vitals of
 * the points written, with the top pages. Screenshots go to test-output/screenshots/.
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

const PROCS = 200
const MIN = 60_000

let agent: AgentProcess
let browser: TestBrowser
let page: Page
let base: string

async function write(category: string, lines: string[]): Promise<void> {
  const res = await fetch(`${agent.url}/v1/write/${category}`, {
    method: 'POST',
    body: lines.join('\n'),
  })
  assert.equal(res.status, 200, await res.text())
}

/** The rows of every series of a DQL answer, through the agent's own query route. */
const rows = (q: string) => allRows(agent.url, q)

const ns = (ms: number) => BigInt(ms) * 1_000_000n

/** A process with a long command (thirty environment variables), CPU and memory apart. */
function processLine(i: number, now: number): string {
  const env = Array.from({ length: 30 }, (_, k) => `VAR_${k}=value-${k}-${i}`).join(' ')
  const tags = `name=web-1_${1000 + i},host=web-1,process_name=worker-${i},username=app,state=sleeping`
  const fields = `pid=${1000 + i}i,cmdline="/usr/bin/worker --id ${i} ${env}",cpu_usage=${i / 10},mem_used_percent=${(PROCS - i) / 10},rss=${(i + 1) * 1048576}i`
  return `host_processes,${tags} ${fields} ${ns(now)}`
}

async function writeData(): Promise<void> {
  const now = Date.now()
  const host = (name: string, at: number) =>
    `HOST,name=${name},host=${name},os=linux,arch=x86_64 num_cpu=4i,mem_total=8589934592i,mem_used_percent=4.0,disk_used_percent=50.0,load=0.5 ${ns(at)}`
  await write('object', [host('web-1', now - MIN), host('old-1', now - 12 * MIN)])
  await write(
    'object',
    Array.from({ length: PROCS }, (_, i) => processLine(i, now)),
  )
  await write('metric', [
    `cpu,host=web-1,cpu=cpu-total usage_total=10 ${ns(now - 3 * MIN)}`,
    `cpu,host=web-1,cpu=cpu-total usage_total=42.5 ${ns(now - MIN)}`,
    `mem,host=web-1 used_percent=17.25 ${ns(now - MIN)}`,
  ])
  // 90 log lines over the last half hour: a third error, two thirds info; eu and us alternate.
  const logs = Array.from({ length: 90 }, (_, i) => {
    const status = i % 3 ? 'info' : 'error'
    return `pageapp,service=web,status=${status},region=${i % 2 ? 'us' : 'eu'} message="req ${i}" ${ns(now - 30 * MIN + i * 20_000)}`
  })
  await write('logging', logs)
  await write('rum', rumLines(now))
  await poll(async () => ((await rows('O::host_processes:(pid)')).length >= PROCS ? true : null))
  await poll(async () => ((await rows('L::pageapp:(message)')).length === 90 ? true : null))
  await poll(async () => ((await rows('R::error:(error_message)')).length === 1 ? true : null))
  await poll(async () => ((await rows('M::mem:(used_percent)')).length === 1 ? true : null))
}

/**
 * Eight views of two pages with LCP 1..8 s (p75 6.25 s as DuckDB interpolates) and one error,
 * all over 15 minutes old: the last 15 minutes have no RUM data.
 */
function rumLines(now: number): string[] {
  const tags = 'app_id=shop_web,sdk_name=df_web_rum_sdk,env=prod,version=1.0.0'
  const views = Array.from({ length: 8 }, (_, i) => {
    const page = i < 5 ? '/home' : '/cart'
    const f = `view_id="v${i}",largest_contentful_paint=${(i + 1) * 1000 * 1e6}i,first_contentful_paint=${500 * 1e6}i,cumulative_layout_shift=0.05`
    return `view,${tags},view_name=${page},session_id=s${i % 3} ${f} ${ns(now - 25 * MIN + i * 1000)}`
  })
  const error = `error,${tags},view_name=/cart error_message="boom",error_stack="at a (app.min.js:1:9)" ${ns(now - 20 * MIN)}`
  return [...views, error]
}

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: path.join(screenshotDir(), `ui-${name}.png`), fullPage: true })
}

const goto = (hash: string) => openPage(page, base, hash)

const texts = (sel: string) => page.$$eval(sel, (e) => e.map((x) => x.textContent ?? ''))

const skip = browserSkip()

describe('the hosts, logs and RUM pages in a browser', { skip }, () => {
  before(async () => {
    const started = await startStudioAgent()
    ;({ agent, base } = started)
    const key = started.key
    const [b] = await Promise.all([launchBrowser(), writeData()])
    browser = b
    page = await studioPage(browser, base, key)
  })
  after(async () => {
    await browser?.close()
    await agent?.stop()
  })

  test('hosts: latest metrics rather than the object, a stale host marked, sort and filter', async () => {
    await goto('#/hosts')
    await page.waitForSelector('#hosts tr.stale')
    const web = await texts('#hosts tr:not(.stale) td')
    // cpu used and mem used come from the newest cpu and mem points, not the object's 4.0 %.
    assert.deepEqual(web.slice(3, 6), ['42.5 %', '8.0 GiB', '17.3 %'])
    assert.match((await texts('#hosts tr.stale td'))[0], /^old-1$/)
    assert.match((await texts('#hosts tr.stale td')).at(-1)!, /stale$/)
    await page.click('#hosts th[data-col="0"]')
    assert.deepEqual((await texts('#hosts tr td:first-child')).slice(0, 2), ['web-1', 'old-1'])
    await shot('hosts')
    await page.type('#host-search', 'old')
    assert.deepEqual(await texts('#hosts tr td:first-child'), ['old-1'])
  })

  test('host: 200 processes in one screen, top by CPU or memory, paged, command on demand', async () => {
    await goto('#/host/web-1')
    await page.waitForSelector('#processes tbody tr')
    const top = await texts('#processes tbody tr:not(.cmd-full) td:nth-child(2)')
    assert.deepEqual(top.slice(0, 3), ['worker-199', 'worker-198', 'worker-197'])
    assert.equal(await page.$eval('#proc-range', (e) => e.textContent), `1–15 of ${PROCS}`)
    const box = await page.$eval('#procs', (e) => e.getBoundingClientRect().height)
    assert.ok(box < page.viewport()!.height, `process table ${box}px high`)
    const tallest = await page.$$eval('#processes tbody tr:not([hidden])', (e) =>
      Math.max(...e.map((r) => r.getBoundingClientRect().height)),
    )
    assert.ok(tallest < 40, `a process row is ${tallest}px high`)
    await page.click('#proc-top-mem')
    const byMem = await texts('#processes tbody tr:not(.cmd-full) td:nth-child(2)')
    assert.deepEqual(byMem.slice(0, 2), ['worker-0', 'worker-1'])
    await page.click('#proc-next')
    assert.equal(await page.$eval('#proc-range', (e) => e.textContent), `16–30 of ${PROCS}`)
    assert.equal(
      (await texts('#processes tbody tr:not(.cmd-full) td:nth-child(2)'))[0],
      'worker-15',
    )
    await page.click('#processes tbody tr:first-child')
    const full = await page.$eval('#processes tr.cmd-full:not([hidden]) td', (e) => e.textContent)
    assert.match(full ?? '', /^\/usr\/bin\/worker --id 15 VAR_0=value-0-15 .* VAR_29=value-29-15$/)
    await page.waitForFunction("document.querySelectorAll('.grid .chart[data-lines]').length === 4")
    await shot('host-200-processes')
    await page.type('#proc-filter', 'worker-42')
    assert.deepEqual(await texts('#processes tbody tr:not(.cmd-full) td:nth-child(2)'), [
      'worker-42',
    ])
  })

  test('logs: the histogram counts what DQL counts; a top value filters the rows', async () => {
    await goto('#/logs?source=pageapp&range=1h')
    await page.waitForSelector('#log-histogram[data-total]')
    const total = await page.$eval('#log-histogram', (e) => Number(e.getAttribute('data-total')))
    const [[, counted]] = await rows('L::pageapp:(count(*))')
    assert.deepEqual([total, counted], [90, 90])
    const legend = await texts('#log-histogram .legend-item')
    assert.deepEqual(legend, ['error 30', 'info 60'])
    await page.click('#log-fields [data-field=region]')
    await page.waitForSelector('#log-fields .top-values')
    assert.deepEqual(await texts('#log-fields .top-values li'), ['eu45 · 50 %', 'us45 · 50 %'])
    await page.$$eval('#log-fields .top-values button', (e) =>
      e.find((b) => b.textContent === 'eu')!.click(),
    )
    await page.waitForSelector('#field-filters .label')
    assert.match(await page.$eval('#field-filters', (e) => e.textContent ?? ''), /^region = eu/)
    await page.waitForFunction("document.getElementById('log-histogram').dataset.total === '45'")
    const [[, eu]] = await rows("L::pageapp:(count(*)) {region = 'eu'}")
    assert.equal(eu, 45)
    assert.match(page.url(), /f=region%3Aeu/)
    await page.waitForFunction("document.getElementById('log-count').textContent.startsWith('45')")
    await shot('logs-fields')
    // Live tail: a line written now comes in on top within a few passes, `warn` in its colour.
    await page.click('#live-tail')
    await write('logging', [
      `pageapp,service=web,status=warn,region=eu message="tailed" ${ns(Date.now())}`,
    ])
    await page.waitForFunction(
      "document.querySelector('#log-rows td.msg')?.textContent === 'tailed'",
      { timeout: 60_000 },
    )
    const status = await page.$eval('#log-rows tr td:nth-child(2)', (e) => [
      e.className,
      e.textContent,
    ])
    assert.deepEqual(status, ['st-warn', 'warn'])
    const colour = "getComputedStyle(document.querySelector('#log-rows tr td:nth-child(2)')).color"
    assert.equal(await page.evaluate(colour), 'rgb(180, 83, 9)')
    await page.click('#live-tail')
  })

  test('RUM: views, errors and p75 vitals of the points written, and the top pages', async () => {
    await goto('#/rum?range=1h')
    await page.waitForSelector('#rum-summary [data-vital=LCP]')
    const label = await page.$eval('label.field', (e) => [
      e.firstChild?.textContent,
      e.querySelector('select')?.value,
    ])
    assert.deepEqual(label, ['Application', 'shop_web'])
    const card = (id: string) =>
      page.$eval(`#rum-summary [data-vital="${id}"] .stat-value`, (e) => e.textContent)
    assert.deepEqual(
      [await card('views'), await card('errors'), await card('sessions')],
      ['8', '1', '3'],
    )
    assert.deepEqual(
      [await card('LCP'), await card('FCP'), await card('CLS')],
      ['6.25 s', '500 ms', '0.050'],
    )
    assert.equal(await card('INP'), '–')
    const rating = await page.$eval('#rum-summary [data-vital=LCP]', (e) => e.className)
    assert.equal(rating, 'stat poor')
    await page.waitForSelector('#rum-pages td')
    assert.deepEqual(await texts('#rum-pages td'), [
      '/home',
      '5',
      '4.00 s',
      '0',
      '/cart',
      '3',
      '7.50 s',
      '1',
    ])
    await page.waitForSelector('#rum-views[data-groups="2"]')
    await shot('rum-vitals')
    // No application in the last 15 minutes: the page says why, and where data comes from.
    await goto('#/rum?range=15m')
    const empty = await page.$eval('#rum-empty', (e) => e.textContent ?? '')
    assert.match(
      empty,
      /^No RUM application has sent views or errors in this range\..*\/v1\/write\/rum/,
    )
    assert.equal(await page.$eval('#rum-app-select', (e) => e.hasAttribute('disabled')), true)
    await shot('rum-empty')
  })
})
