/**
 * Runs one external symbol tool (retrace, ndk-stack, atos/atosl) as a child process: at most
 * `concurrency` at once (the others wait their turn, in order), each killed after `timeoutMs`,
 * its output capped. A tool never runs through a shell string: the command and its arguments
 * are passed as they are, so nothing from a stack is ever interpreted.
 */
import { spawn } from 'node:child_process'
import os from 'node:os'

export interface ToolLimits {
  timeoutMs: number
  concurrency: number
}

export interface ToolRun {
  ok: boolean
  stdout: string
  /** Why it failed: exit status, signal, timeout, or spawn error, with stderr's tail. */
  error: string
}

const MAX_OUTPUT = 16 * 1024 * 1024

export class ToolRunner {
  private running = 0
  private readonly waiting: (() => void)[] = []

  constructor(private readonly limits: ToolLimits) {}

  async run(cmd: string, args: string[], stdin: string): Promise<ToolRun> {
    if (this.running >= this.limits.concurrency)
      await new Promise<void>((r) => this.waiting.push(r))
    this.running++
    try {
      return await runOnce(cmd, args, stdin, this.limits.timeoutMs)
    } finally {
      this.running--
      this.waiting.shift()?.()
    }
  }
}

function runOnce(cmd: string, args: string[], stdin: string, timeoutMs: number): Promise<ToolRun> {
  return new Promise((resolve) => {
    // atosl keeps a cache under $HOME; nothing else of the agent's environment is needed.
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: os.tmpdir() }
    const child = spawn(cmd, args, { env, stdio: ['pipe', 'pipe', 'pipe'] })
    const out: Buffer[] = []
    const err: Buffer[] = []
    let size = 0
    let why = ''
    const timer = setTimeout(() => {
      why = `timed out after ${timeoutMs} ms`
      child.kill('SIGKILL')
    }, timeoutMs)
    const keep = (into: Buffer[]) => (b: Buffer) => {
      size += b.length
      if (size <= MAX_OUTPUT) into.push(b)
      else if (!why) {
        why = 'output too large'
        child.kill('SIGKILL')
      }
    }
    child.stdout.on('data', keep(out))
    child.stderr.on('data', keep(err))
    child.stdin.on('error', () => undefined) // a tool may exit without reading its input
    child.stdin.end(stdin)
    child.on('error', (e) => (why ||= e.message))
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      const stderr = Buffer.concat(err).toString('utf8').trim().slice(-500)
      if (!why && code !== 0) why = `exit ${code ?? signal}${stderr ? `: ${stderr}` : ''}`
      resolve({ ok: !why, stdout: Buffer.concat(out).toString('utf8'), error: why })
    })
  })
}
