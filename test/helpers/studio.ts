/**
 * The studio's browser tests' setup: the page scripts compiled, an agent with its embedded
 * workspace started, its API key read, a Chromium page of 1280x900 opened while the test's data
 * is written. The agent, browser, page, workspace address and key come back for the test.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'puppeteer-core'
import { startAgent, type AgentProcess } from './agent-process.js'
import { launchBrowser, type TestBrowser } from './browser.js'

export interface Studio {
  agent: AgentProcess
  browser: TestBrowser
  page: Page
  /** The workspace's address, `http://127.0.0.1:port`. */
  base: string
  key: string
}

export async function openStudio(
  env: Record<string, string>,
  write: (agent: AgentProcess) => Promise<void>,
): Promise<Studio> {
  // The page scripts are compiled by `npm run build`; a test run from the sources builds them.
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'ui/tsconfig.json'])
  const agent = await startAgent(env)
  const line = agent.logs.find((l) => l.includes('"workspace_started"')) ?? ''
  const base = `http://${/"listen":"([^"]+)"/.exec(line)![1]}`
  const key = fs
    .readFileSync(path.join(agent.dataDir, 'workspace', 'default.api-key'), 'utf8')
    .trim()
  const [browser] = await Promise.all([launchBrowser(), write(agent)])
  const page = await browser.browser.newPage()
  await page.setViewport({ width: 1280, height: 900 })
  return { agent, browser, page, base, key }
}
