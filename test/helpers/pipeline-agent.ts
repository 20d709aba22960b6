/** A real agent (child process) with a logging script folder and a sink as its upstream. */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startAgent, type AgentProcess } from './agent-process.js'
import { SinkServer } from './sink-server.js'

export interface PipelineAgent {
  agent: AgentProcess
  sink: SinkServer
  /** Writes (or rewrites) `conf.d/pipeline/logging/<name>` of the running agent. */
  script(name: string, text: string): void
}

/** `cleanup` receives the stops, in start order; `env` adds to the upstream and folder. */
export async function startPipelineAgent(
  scripts: Record<string, string>,
  env: Record<string, string>,
  cleanup: (() => Promise<unknown>)[],
): Promise<PipelineAgent> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-pl-'))
  fs.mkdirSync(path.join(dir, 'logging'))
  const script = (name: string, text: string) =>
    fs.writeFileSync(path.join(dir, 'logging', name), text)
  for (const [name, text] of Object.entries(scripts)) script(name, text)
  const sink = new SinkServer()
  const upstream = await sink.start()
  cleanup.push(() => sink.stop())
  const agent = await startAgent({ ENV_DATAWAY: upstream, ENV_PIPELINE_DIR: dir, ...env })
  cleanup.push(() => agent.stop())
  return { agent, sink, script }
}
