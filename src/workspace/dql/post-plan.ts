/**
 * The post steps of a plan (plan.ts `Post`), decided from the statement: HAVING and SORDER BY
 * name outputs (by alias or select expression text); any post step that drops or reorders
 * rows or series takes the row and series limits with it, so they count what is answered.
 */
import type { Expr, OrderItem } from './ast.js'
import { bad } from './invalid.js'
import type { Outputs } from './outputs.js'
import type { Limits, Post } from './plan.js'

export function outputIndex(outs: Outputs, column: string): number {
  const byName = outs.list.findIndex((o) => o.name === column)
  return byName >= 0 ? byName : outs.texts.indexOf(column)
}

function resolveHaving(e: Expr, outs: Outputs): Expr {
  if ('left' in e)
    return { op: e.op, left: resolveHaving(e.left, outs), right: resolveHaving(e.right, outs) }
  if (e.op === 'not') return { op: 'not', expr: resolveHaving(e.expr, outs) }
  const i = outputIndex(outs, e.column)
  if (i < 0) throw bad(`HAVING ${e.column}: compare a selected expression or its alias`)
  return { ...e, column: outs.list[i].name }
}

export function planPost(
  outs: Outputs,
  having: Expr | null,
  sorder: OrderItem[],
  limits: Limits,
): { post: Post; engineLimits: Limits } {
  const seriesOrder = sorder.map((o) => {
    const output = outputIndex(outs, o.column)
    if (output < 0) throw bad(`SORDER BY ${o.column}: order series by a selected expression`)
    return { output, desc: o.desc }
  })
  const post: Post = {
    transforms: outs.transforms,
    explode: outs.explode,
    having: having && resolveHaving(having, outs),
    seriesOrder,
    limits: null,
  }
  const lifted =
    post.transforms.length > 0 ||
    post.explode !== null ||
    post.having !== null ||
    seriesOrder.length > 0
  if (!lifted) return { post, engineLimits: limits }
  post.limits = limits
  return { post, engineLimits: { limit: null, offset: 0, slimit: null, soffset: 0 } }
}
