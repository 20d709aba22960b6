/**
 * The multi-step dial test: HTTP and wait steps in order, each HTTP step rendered with the
 * variables earlier steps extracted from their post scripts; retries, `allow_failure`, and
 * secure extracted values hidden in the answer.
 */
import { checkHttpTask, runHttp } from './http/task.js'
import type { HttpTask } from './http/types.js'
import type { NetGuard } from './guard.js'
import { isValidVariableName, type Funcs } from './template.js'
import { hideSecrets, renderDeep } from './vars.js'
import type { DialResult } from './types.js'

export interface Step {
  type?: string
  name?: string
  allow_failure?: boolean
  retry?: { retry?: number; interval?: number }
  task?: string
  value?: number
  extracted_vars?: { name: string; field: string; secure?: boolean; value?: string }[]
}

export interface MultiTask {
  name?: string
  steps?: Step[]
  tags?: Record<string, string>
}

function stepTask(s: Step): HttpTask {
  try {
    return JSON.parse(s.task ?? '') as HttpTask
  } catch (e) {
    throw new Error(`new task failed: ${(e as Error).message}`)
  }
}

export function checkMultiTask(t: MultiTask): void {
  for (const s of t.steps ?? []) {
    if (s.retry && ((s.retry.retry ?? 0) < 0 || (s.retry.retry ?? 0) > 5))
      throw new Error('retry should be in 0 ~ 5')
    if (s.retry && ((s.retry.interval ?? 0) < 0 || (s.retry.interval ?? 0) > 5000))
      throw new Error('retry interval should be in 0 ~ 5000')
    if (s.type === 'wait') {
      if (!(Number(s.value) >= 1 && Number(s.value) <= 180))
        throw new Error('wait step value should be in 1 ~ 180')
    } else if (s.type === 'http') {
      if (!s.task) throw new Error('http step task should not be empty')
      try {
        checkHttpTask(stepTask(s))
      } catch (e) {
        throw new Error(`check task failed: ${(e as Error).message}`)
      }
      for (const v of s.extracted_vars ?? [])
        if (!isValidVariableName(v.name)) throw new Error(`invalid variable name ${v.name}`)
    } else throw new Error('step type should be wait or http')
  }
}

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

export async function runMulti(
  t: MultiTask,
  fm: Funcs,
  guard: NetGuard,
  ua: string,
  deadline = Infinity,
): Promise<DialResult> {
  const started = process.hrtime.bigint()
  const steps: Record<string, unknown>[] = []
  let failed = false
  let lastStep = -1
  let status = 'OK'
  for (const [i, s] of (t.steps ?? []).entries()) {
    const out: Record<string, unknown> = {
      type: s.type,
      allow_failure: s.allow_failure === true,
      task: s.task ?? '',
    }
    steps.push(out)
    if (failed) continue
    if (Date.now() >= deadline) {
      // Wait steps may add up to minutes; the task ends with its request.
      out.fail_reason = 'run task failed: the task ran out of time'
      failed = true
      continue
    }
    lastStep = i
    out.task_start_time = Date.now()
    if (s.type === 'wait') {
      out.value = s.value
      const left = deadline - Date.now()
      await sleep(Math.max(0, Math.min(Number(s.value) * 1000, left)))
      if (Number(s.value) * 1000 > left) {
        out.fail_reason = 'run task failed: the task ran out of time'
        failed = true
      }
      continue
    }
    const r = await httpStep(s, fm, guard, ua)
    Object.assign(out, r.result.tags, r.result.fields)
    out.extracted_vars = (s.extracted_vars ?? []).map((v) =>
      v.secure
        ? { name: v.name, field: v.field, secure: true }
        : { name: v.name, field: v.field, secure: false, value: fm.get(v.name) ?? '' },
    )
    status = r.result.tags.status ?? 'FAIL'
    if (r.error) {
      out.fail_reason = `run task failed: ${r.error}`
      if (!s.allow_failure) failed = true
    }
  }
  const tags: Record<string, string> = {
    name: t.name ?? '',
    status: failed ? 'FAIL' : status,
    ...t.tags,
  }
  const fields: Record<string, unknown> = {
    response_time: Number((process.hrtime.bigint() - started) / 1000n),
    last_step: lastStep,
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
