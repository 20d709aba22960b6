/**
 * The README's "Five minutes with Ferry" driven end to end, its browser steps in a real headless
 * Chromium: each step's shell examples run as the README walk runs them (test/helpers/
 * readme-walk.ts: the built agent from the package root, the shipped config, a restart where
 * the README says so), and after step 4 and step 7 the test does in the browser what their text
 * says, with the names the text gives: open the studio's address, paste the key the agent
 * printed, type the query into Explore and see its one line; open Logs, pick the source, see
 * the lines newest first with the warning marked, filter by status, open a line's fields.
 * Screenshots of both steps go to test-output/screenshots/.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import type { Page } from 'puppeteer-core'
import { browserSkip, launchBrowser, screenshotDir, type TestBrowser } from '../helpers/browser.js'
import { shellExamples, type Example } from '../helpers/readme.js'
import { ReadmeRun, ROOT } from '../helpers/readme-walk.js'

interface Step {
  /** The step's number in its heading (`### 4. Open the studio`). */
  n: string
  text: string
  examples: Example[]
}

/** The tour's steps in order: each heading's text and the shell examples under it. */
function tourSteps(): Step[] {
  const file = path.join(ROOT, 'README.md')
  const lines = fs.readFileSync(file, 'utf8').split('\n')
  const start = lines.indexOf('## Five minutes with Ferry')
  const end = lines.findIndex((l, i) => i > start && l.startsWith('## '))
  const steps: (Step & { from: number })[] = []
  for (let i = start; i < end; i++) {
    const m = /^### (\d+)\. /.exec(lines[i])
    if (m) steps.push({ n: m[1], text: '', examples: [], from: i + 1 })
    else if (steps.length) steps.at(-1)!.text += `${lines[i]}\n`
  }
  for (const e of shellExamples(file, 'README.md'))
    steps.findLast((s) => s.from <= e.line && e.line <= end)?.examples.push(e)
  return steps
}

/** The text's first match of `re`, which the step must have. */
function said(step: Step, re: RegExp): string {
  const m = re.exec(step.text)
  assert.ok(m, `README step ${step.n} no longer says ${re}`)
  return m[1]
}

const run = new ReadmeRun()
let browser: TestBrowser
let page: Page
let started = false

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: path.join(screenshotDir(), `tour-${name}.png`), fullPage: true })
}

/** Step 4: the address, the printed key pasted into the login form, the query in Explore. */
async function openStudio(step: Step): Promise<void> {
  const address = run.localise(said(step, /Open <(http:\/\/[^>]+\/ui\/)> in a browser/))
  assert.match(step.text, /paste the key/)
  const printed = /API key for workspace default: (\w+)/.exec(run.logs.join('\n'))![1]
  const stored = fs.readFileSync(path.join(run.dataDir, 'workspace/default.api-key'), 'utf8')
  assert.equal(stored.trim(), printed)
  await page.goto(address)
  assert.equal(new URL(page.url()).pathname, '/ui/login')
  await logIn()
  assert.equal(new URL(page.url()).pathname, '/ui/')
  await page.waitForSelector('#dql')
  const query = said(step, /\(type `([^`]+)`\)/)
  await page.evaluate("document.getElementById('dql').value = ''")
  await page.type('#dql', query)
  await page.click('#run')
  // Explore drew its default query on load: wait for the answer to the one typed.
  await page.waitForFunction(
    "document.querySelector('#result .uplot') && document.getElementById('result').textContent.includes('host=web-01')",
  )
  assert.equal(await page.$eval('#result', (e) => e.getAttribute('data-lines')), '1')
  await shot('4-explore')
}

/** Logs in with the key the agent wrote, from wherever the browser is. */
async function logIn(): Promise<void> {
  const key = fs.readFileSync(path.join(run.dataDir, 'workspace/default.api-key'), 'utf8')
  await page.type('input[name=key]', key.trim())
  await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')])
  await page.waitForSelector('main[data-ready]')
}

/**
 * Step 7: the studio reloaded and logged in again (the restart ended the session), Logs, the
 * source picked, the lines newest first, a status filter, a line's fields.
 */
async function seeLogs(step: Step): Promise<void> {
  assert.match(step.text, /Reload the studio and log in again with the same key/)
  await page.reload()
  assert.equal(new URL(page.url()).pathname, '/ui/login')
  await logIn()
  const source = said(step, /pick the source `([^`]+)`/)
  await page.click('header nav a[href="#/logs"]')
  await page.waitForSelector(`select[name=source] option[value="${source}"]`)
  await page.select('select[name=source]', source)
  const messages = () => page.$$eval('#log-rows td.msg', (e) => e.map((x) => x.textContent))
  await page.waitForFunction(`document.querySelectorAll('#log-rows tr').length === 2`)
  assert.deepEqual(await messages(), ['WARN disk 91% full on /var', 'INFO user alice logged in'])
  const marked = await page.$eval('#log-rows tr td:nth-child(2)', (e) => [
    e.className,
    e.textContent,
  ])
  assert.deepEqual(marked, ['st-warning', 'warning'])
  await page.waitForSelector('#log-histogram[data-total="2"]')
  await shot('7-logs')
  await page.type('input[name=status]', 'warning')
  await page.click('form.toolbar button[type=submit]')
  await page.waitForFunction(`document.querySelectorAll('#log-rows tr').length === 1`)
  await page.click('#log-rows tr')
  const detail = await page.$eval('#log-detail', (e) => e.textContent ?? '')
  assert.match(detail, /msg\s*disk 91% full on \/var/)
  await shot('7-log-fields')
}

const BROWSER_STEPS: Record<string, (step: Step) => Promise<void>> = {
  '4': openStudio,
  '7': seeLogs,
}

describe("the README's five minutes, in a browser", { skip: browserSkip() }, () => {
  before(async () => {
    // Its own OTLP/gRPC port: the shipped config's 4317 may be taken on a shared machine.
    started = await run.setup({}, ['ENV_OTLP_GRPC_LISTEN'])
    if (!started) return
    browser = await launchBrowser()
    page = await browser.browser.newPage()
    await page.setViewport({ width: 1280, height: 900 })
  })
  after(async () => {
    await browser?.close()
    await run.teardown()
  })

  test('every step as the README writes it', { timeout: 300_000 }, async (t) => {
    if (!started) return t.skip('dist/ is not built (npm test builds it first)')
    const steps = tourSteps()
    assert.deepEqual(
      steps.map((s) => s.n),
      ['1', '2', '3', '4', '5', '6', '7'],
    )
    for (const step of steps) {
      for (const e of step.examples) await run.walk(e)
      await BROWSER_STEPS[step.n]?.(step)
    }
  })
})
