/**
 * The inputs component: starts every planned instance (polled ones on the scheduler, streaming
 * ones by themselves), stops them all on shutdown, and on a reload stops the old set and starts
 * the new one (a log tail resumes from its saved positions, so nothing is lost in between).
 */
import type { Component } from '../component.js'
import type { Category } from '../shared/category.js'
import type { Emit, InputEnv, StreamingInput } from './input.js'
import type { InputConf } from './conf/load.js'
import { addTags, runOnce, type Instance } from './run-once.js'
import { Scheduler } from './scheduler.js'
import type { Submitter } from './submit.js'

export class Inputs implements Component {
  readonly name = 'inputs'
  private scheduler: Scheduler | null = null
  private streaming: { name: string; input: StreamingInput }[] = []
  private stopping: Promise<void> | null = null

  constructor(
    private confs: InputConf[],
    private readonly submitter: Submitter,
    private readonly env: InputEnv,
    private readonly maxJitter = 5_000,
  ) {}

  /** Names of the running instances, one per instance (an input may run several times). */
  running(): string[] {
    return this.confs.map((c) => c.kind.name)
  }

  async start(): Promise<void> {
    if (this.scheduler) return
    this.stopping = null
    const scheduler = new Scheduler(this.maxJitter)
    this.scheduler = scheduler
    for (const c of this.confs) {
      const input = c.kind.create(c.conf, this.env)
      const name = c.kind.name
      const tags = (c.conf.tags ?? {}) as Record<string, string>
      if (input.kind === 'polled') {
        const i: Instance = { name, input, tags, timeout: input.timeout ?? input.interval }
        scheduler.add({
          interval: input.interval,
          run: () => runOnce(i, this.submitter, this.env.events),
        })
        this.env.events.started(name, input.interval)
      } else {
        await input.start(this.emitter(name, tags))
        this.streaming.push({ name, input })
        this.env.events.started(name, null)
      }
    }
  }

  private emitter(name: string, tags: Record<string, string>): Emit {
    return async (points, o = {}) => {
      addTags(points, tags)
      const category: Category = o.category ?? 'logging'
      const n = await this.submitter.submit(name, category, points, o.source ?? null)
      this.env.events.buffered(name, n)
    }
  }

  /** Replaces the running set with `confs` (SIGHUP). */
  async reload(confs: InputConf[]): Promise<void> {
    await this.shutdown()
    this.confs = confs
    await this.start()
  }

  /** Idempotent: the second call waits for the first. */
  shutdown(): Promise<void> {
    this.stopping ??= (async () => {
      await this.scheduler?.stop()
      this.scheduler = null
      for (const s of this.streaming.splice(0)) {
        await s.input.shutdown()
        this.env.events.stopped(s.name)
      }
    })()
    return this.stopping
  }
}
