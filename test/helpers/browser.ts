/**
 * A real headless Chromium (Debian's `chromium` package) driven by `puppeteer-core`, for the
 * tests that need a browser. Optional on a developer machine: `launchBrowser()` answers null
 * with the reason when no Chromium is installed, and the test skips with that message.
 * Every browser runs with a throwaway profile and no network beyond loopback.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import puppeteer, { type Browser, type Page } from 'puppeteer-core'

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']

/** The Chromium binary to drive: `CHROMIUM_PATH` when set, else the first one installed. */
export function chromiumPath(): string | null {
  const fromEnv = process.env['CHROMIUM_PATH']
  if (fromEnv) return fs.existsSync(fromEnv) ? fromEnv : null
  return CANDIDATES.find((p) => fs.existsSync(p)) ?? null
}

/** Why browser tests skip here, or false when they can run. */
export function browserSkip(): string | false {
  return chromiumPath() ? false : 'no Chromium installed (apt-get install chromium)'
}

export interface TestBrowser {
  browser: Browser
  /** Closes the browser and removes its profile; safe to call twice. */
  close(): Promise<void>
}

export async function launchBrowser(): Promise<TestBrowser> {
  const executablePath = chromiumPath()
  if (!executablePath) throw new Error('no Chromium installed')
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-chromium-'))
  const browser = await puppeteer.launch({
    executablePath,
    headless: true,
    userDataDir: profile,
    // No sandbox: CI runs as root, where Chromium refuses its sandbox.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  })
  let closed = false
  return {
    browser,
    async close() {
      if (closed) return
      closed = true
      await browser.close().catch(() => undefined)
      fs.rmSync(profile, { recursive: true, force: true })
    },
  }
}

/** Where tests save screenshots for review (kept after the run, inside the repository). */
export function screenshotDir(): string {
  const dir = path.resolve('test-output', 'screenshots')
  fs.mkdirSync(dir, { recursive: true })
  return dir
}

/** A new 1280-wide page of `browser`, logged in to the studio at `base` with `key`. */
export async function studioPage(tb: TestBrowser, base: string, key: string, height = 900) {
  const page = await tb.browser.newPage()
  await page.setViewport({ width: 1280, height })
  await page.goto(`${base}/ui/login`)
  await page.type('input[name=key]', key.trim())
  await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')])
  return page
}

/** Opens a studio page (`#/hosts`) and waits until it has drawn. */
export async function openPage(page: Page, base: string, hash: string): Promise<void> {
  // A hash change keeps the document: clear the old page's ready mark so the wait is for the new.
  await page.evaluate("document.getElementById('main')?.removeAttribute('data-ready')")
  await page.goto(`${base}/ui/${hash}`)
  await page.waitForSelector('main[data-ready]')
}
