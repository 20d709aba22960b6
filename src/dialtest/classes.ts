/** The task classes: each one's check, target hosts (for the guard) and run. */
import { checkHttpTask, runHttp } from './http/task.js'
import type { HttpTask } from './http/types.js'
import { checkIcmpTask, runIcmp, type IcmpTask } from './icmp.js'
import { runMulti } from './multi.js'
import { checkMultiTask, type MultiTask } from './multi-task.js'
import { checkTcpTask, runTcp, type TcpTask } from './tcp.js'
import { checkWsTask, runWs, type WsTask } from './websocket.js'
import type { NetGuard } from './guard.js'
import type { Funcs } from './template.js'
import type { DialResult } from './types.js'

export interface RunEnv {
  guard: NetGuard
  userAgent: string
  fm: Funcs
  /** When the task must end (ms since the epoch): its request is answered by then. */
  deadline: number
}

export interface TaskClass {
  check(t: unknown): void
  /** Whether its strings are rendered before the run (multi renders each step itself). */
  renders: boolean
  hosts(t: unknown): string[]
  run(t: unknown, env: RunEnv): Promise<DialResult>
}

const hostOf = (url: string | undefined): string[] => {
  try {
    return [new URL(url ?? '').hostname]
  } catch {
    return []
  }
}

const stepHosts = (t: MultiTask): string[] =>
  (t.steps ?? []).flatMap((s) => {
    if (s.type !== 'http' || !s.task) return []
    const url = (JSON.parse(s.task) as HttpTask).url ?? ''
    return url.includes('{{') ? [] : hostOf(url)
  })

export const CLASSES: Record<string, TaskClass> = {
  HTTP: {
    check: (t) => checkHttpTask(t as HttpTask),
    renders: true,
    hosts: (t) => hostOf((t as HttpTask).url),
    run: async (t, e) => (await runHttp(t as HttpTask, e.guard, e.userAgent)).result,
  },
  TCP: {
    check: (t) => checkTcpTask(t as TcpTask),
    renders: true,
    hosts: (t) => [(t as TcpTask).host ?? ''],
    run: (t, e) => runTcp(t as TcpTask, e.guard),
  },
  ICMP: {
    check: (t) => checkIcmpTask(t as IcmpTask),
    renders: true,
    hosts: (t) => [(t as IcmpTask).host ?? ''],
    run: (t, e) => runIcmp(t as IcmpTask, e.guard),
  },
  WEBSOCKET: {
    check: (t) => checkWsTask(t as WsTask),
    renders: true,
    hosts: (t) => hostOf((t as WsTask).url),
    run: (t, e) => runWs(t as WsTask, e.guard),
  },
  MULTI: {
    check: (t) => checkMultiTask(t as MultiTask),
    renders: false,
    hosts: (t) => stepHosts(t as MultiTask),
    run: (t, e) => runMulti(t as MultiTask, e.fm, e.guard, e.userAgent, e.deadline),
  },
}
