/**
 * Series functions, computed on an answer's series in TypeScript so that every engine answers
 * them alike and none needs window functions. Input: times (ms) and values in ascending time;
 * output: one value per row, `undefined` where the function has none (the row is then dropped
 * when no other transformed output has a value). Null or non-numeric values are skipped: a
 * row's previous value is the last numeric one before it.
 *
 * - derivative: change per second from the previous value; non_negative_derivative, rate and
 *   irate: the same, rows with a negative change dropped (a counter reset)
 * - difference: change from the previous value; non_negative_difference drops negative ones
 * - moving_average(n): mean of the last n values (none before the n-th)
 * - cumsum: running sum; abs, log10, log2: per value (null outside the domain)
 */
import type { SeriesFunc } from './plan.js'

type Out = (number | null | undefined)[]

const num = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v) : NaN
  return Number.isFinite(n) ? n : null
}

function pairwise(
  times: number[],
  values: unknown[],
  f: (dv: number, dt: number) => number | undefined,
): Out {
  let prev: [number, number] | null = null
  return values.map((raw, i) => {
    const v = num(raw)
    if (v === null) return undefined
    const out = prev ? f(v - prev[1], (times[i] - prev[0]) / 1000) : undefined
    prev = [times[i], v]
    return out
  })
}

const perSecond = (dv: number, dt: number) => (dt > 0 ? dv / dt : undefined)
const nonNegative =
  (f: (dv: number, dt: number) => number | undefined) => (dv: number, dt: number) =>
    dv < 0 ? undefined : f(dv, dt)

function movingAverage(values: unknown[], n: number): Out {
  const window: number[] = []
  let sum = 0
  return values.map((raw) => {
    const v = num(raw)
    if (v === null) return undefined
    window.push(v)
    sum += v
    if (window.length > n) sum -= window.shift()!
    return window.length === n ? sum / n : undefined
  })
}

function pointwise(values: unknown[], f: (v: number) => number): Out {
  return values.map((raw) => {
    const v = num(raw)
    if (v === null) return null
    const r = f(v)
    return Number.isFinite(r) ? r : null
  })
}

export function applySeriesFunc(
  func: SeriesFunc,
  times: number[],
  values: unknown[],
  param?: number,
): Out {
  switch (func) {
    case 'derivative':
      return pairwise(times, values, perSecond)
    case 'non_negative_derivative':
    case 'rate':
    case 'irate':
      return pairwise(times, values, nonNegative(perSecond))
    case 'difference':
      return pairwise(times, values, (dv) => dv)
    case 'non_negative_difference':
      return pairwise(
        times,
        values,
        nonNegative((dv) => dv),
      )
    case 'moving_average':
      return movingAverage(values, param ?? 1)
    case 'cumsum': {
      let sum = 0
      return values.map((raw) => {
        const v = num(raw)
        return v === null ? undefined : (sum += v)
      })
    }
    case 'abs':
      return pointwise(values, Math.abs)
    case 'log10':
      return pointwise(values, (v) => (v > 0 ? Math.log10(v) : NaN))
    case 'log2':
      return pointwise(values, (v) => (v > 0 ? Math.log2(v) : NaN))
  }
}
