/**
 * Running the multi-step dial test (multi-task.ts checks it first): HTTP and wait steps in
 * order, each HTTP step rendered with the variables earlier steps extracted from their post
 * scripts; retries, `allow_failure`, the request's deadline, and secure extracted values hidden
 * in the answer.
 */
import { runHttp } from './http/task.js'
import type { HttpTask } from './http/types.js'
import type { NetGuard } from './guard.js'
import { stepTask, type MultiTask, type Step } from './multi-task.js'
import type { Funcs } from './template.js'
import { hideSecrets, renderDeep } from './vars.js'
import type { DialResult } from './types.js'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function httpStep(
  s: Step,
  fm: Funcs,
  guard: NetGuard,
  ua: string,
): Promise<{ result: DialResult; error: string }> {
  const tries = (s.retry?.retry ?? 0) + 1
  let last: { result: DialResult; error: string } = { result: { tags: {}, fields: {} }, error: '' }
  for (let n = 0; n < tries; n++) {
    if (n) await sleep(s.retry?.interval ?? 0)
    let task: HttpTask
    try {
      task = renderDeep(stepTask(s), fm)
    } catch (e) {
      return {
        result: last.result,
        error: `init http step task failed: render template error: ${(e as Error).message}`,
      }
    }
    const run = await runHttp(task, guard, ua)
    for (const v of s.extracted_vars ?? []) {
      const value = run.post?.vars[v.field]
      fm.set(v.name, value === undefined || value === null ? '' : String(value))
    }
    const ok = run.result.tags.status === 'OK'
    last = {
      result: run.result,
      error: ok ? '' : `run HTTP step task failed: ${String(run.result.fields.fail_reason ?? '')}`,
    }
    if (ok) break
  }
  return last
}

const OUT_OF_TIME = 'run task failed: the task ran out of time'

/** Where a run stands: whether it failed, the last step it started, the last HTTP status. */
interface Progress {
  failed: boolean
  lastStep: number
  status: string
}

/** Sleeps a wait step's seconds, cut at the deadline; false when the deadline cut it. */
async function waitStep(s: Step, out: Record<string, unknown>, deadline: number) {
  out.value = s.value
  const left = deadline - Date.now()
  await sleep(Math.max(0, Math.min(Number(s.value) * 1000, left)))
  return Number(s.value) * 1000 <= left
}

/** Runs an HTTP step and writes what it gave into `out`; a secure value is not written. */
async function httpStepInto(
  s: Step,
  out: Record<string, unknown>,
  env: { fm: Funcs; guard: NetGuard; ua: string },
): Promise<{ status: string; fails: boolean }> {
  const r = await httpStep(s, env.fm, env.guard, env.ua)
  Object.assign(out, r.result.tags, r.result.fields)
  out.extracted_vars = (s.extracted_vars ?? []).map((v) =>
    v.secure
      ? { name: v.name, field: v.field, secure: true }
      : { name: v.name, field: v.field, secure: false, value: env.fm.get(v.name) ?? '' },
  )
  if (r.error) out.fail_reason = `run task failed: ${r.error}`
  return { status: r.result.tags.status ?? 'FAIL', fails: r.error !== '' && !s.allow_failure }
}

/** Each step in order until one fails (the rest are listed, not run) or time runs out. */
async function runSteps(
  t: MultiTask,
  env: { fm: Funcs; guard: NetGuard; ua: string },
  deadline: number,
): Promise<{ steps: Record<string, unknown>[]; p: Progress }> {
  const steps: Record<string, unknown>[] = []
  const p: Progress = { failed: false, lastStep: -1, status: 'OK' }
  for (const [i, s] of (t.steps ?? []).entries()) {
    const out: Record<string, unknown> = {
      type: s.type,
      allow_failure: s.allow_failure === true,
      task: s.task ?? '',
    }
    steps.push(out)
    if (p.failed) continue
    // Wait steps may add up to minutes; the task ends with its request.
    if (Date.now() >= deadline) {
      out.fail_reason = OUT_OF_TIME
      p.failed = true
      continue
    }
    p.lastStep = i
    out.task_start_time = Date.now()
    if (s.type === 'wait') {
      if (!(await waitStep(s, out, deadline))) {
        out.fail_reason = OUT_OF_TIME
        p.failed = true
      }
      continue
    }
    const r = await httpStepInto(s, out, env)
    p.status = r.status
    if (r.fails) p.failed = true
  }
  return { steps, p }
}

/** The task's point: its status, timing, the steps as JSON and their reasons; secrets hidden. */
function resultOf(
  t: MultiTask,
  run: { steps: Record<string, unknown>[]; p: Progress },
  started: bigint,
  fm: Funcs,
): DialResult {
  const { steps, p } = run
  const tags: Record<string, string> = {
    name: t.name ?? '',
    status: p.failed ? 'FAIL' : p.status,
    ...t.tags,
  }
  const fields: Record<string, unknown> = {
    response_time: Number((process.hrtime.bigint() - started) / 1000n),
    last_step: p.lastStep,
    steps: JSON.stringify(steps),
  }
  if (!(t.steps ?? []).length) {
    tags.status = 'FAIL'
    fields.fail_reason = 'no steps found'
  } else if (tags.status !== 'OK') {
    const reasons = steps.map((s) => s.fail_reason).filter((r) => typeof r === 'string')
    fields.fail_reason = reasons.join(';')
  }
  fields.success = tags.status === 'OK' ? 1 : -1
  fields.message = JSON.stringify({ fail_reason: fields.fail_reason ?? '', status: tags.status })
  const secure = (t.steps ?? []).flatMap((s) => (s.extracted_vars ?? []).filter((v) => v.secure))
  hideSecrets(
    fields,
    secure.map((v) => fm.get(v.name) ?? ''),
  )
  return { tags, fields }
}

export async function runMulti(
  t: MultiTask,
  fm: Funcs,
  guard: NetGuard,
  ua: string,
  deadline = Infinity,
): Promise<DialResult> {
  const started = process.hrtime.bigint()
  return resultOf(t, await runSteps(t, { fm, guard, ua }, deadline), started, fm)
}
