/**
 * An agent for the studio's browser tests: the page scripts compiled from the sources first
 * (`npm run build` does it for the built agent), then the agent started with `env`; answers
 * the workspace's address (where the studio is served) and the default workspace's API key.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { startAgent, type AgentProcess } from './agent-process.js'

export interface StudioAgent {
  agent: AgentProcess
  /** `http://127.0.0.1:<port>` of the workspace. */
  base: string
  key: string
}

export async function startStudioAgent(env: Record<string, string> = {}): Promise<StudioAgent> {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'ui/tsconfig.json'])
  const agent = await startAgent(env)
  const line = agent.logs.find((l) => l.includes('"workspace_started"')) ?? ''
  const base = `http://${/"listen":"([^"]+)"/.exec(line)![1]}`
  const keyFile = path.join(agent.dataDir, 'workspace', 'default.api-key')
  return { agent, base, key: fs.readFileSync(keyFile, 'utf8').trim() }
}
