/**
 * The form that adds a dashboard chart or edits one: title, DQL, type and the display options
 * saved with it (unit, decimals, stacked, y min and max; blank means automatic). The values
 * are checked here (decimals 0-10, min below max) before anything is saved.
 */
import { CHART_TYPES, type ChartType } from './chart.js'
import type { ChartSpec } from './dashboard-model.js'
import { h, select } from './dom.js'
import { UNITS } from './units.js'

const input = (name: string, label: string, value = '', extra: Record<string, string> = {}) =>
  h('input', { name, placeholder: label, 'aria-label': label, value, ...extra }) as HTMLInputElement

const numberInput = (name: string, label: string, v: number | undefined) =>
  input(name, label, v === undefined ? '' : String(v), { type: 'number', step: 'any' })

/** A number input's value: undefined when blank. */
const numberOf = (el: HTMLInputElement) => (el.value.trim() === '' ? undefined : Number(el.value))

/** The chart the fields describe, or the reason it cannot be saved. */
function read(f: Record<string, HTMLInputElement | HTMLSelectElement>): ChartSpec | string {
  const [min, max, decimals] = [f.min, f.max, f.decimals].map((el) =>
    numberOf(el as HTMLInputElement),
  )
  if (!f.dql.value.trim()) return 'the chart needs a DQL query'
  if (decimals !== undefined && !(Number.isInteger(decimals) && decimals >= 0 && decimals <= 10))
    return 'decimals must be a whole number from 0 to 10'
  if (min !== undefined && max !== undefined && !(min < max)) return 'min must be below max'
  const spec: ChartSpec = {
    title: f.title.value.trim(),
    dql: f.dql.value.trim(),
    type: f.type.value as ChartType,
  }
  if (f.unit.value !== 'auto') spec.unit = f.unit.value
  if (decimals !== undefined) spec.decimals = decimals
  if ((f.stacked as HTMLInputElement).checked) spec.stacked = true
  if (min !== undefined) spec.min = min
  if (max !== undefined) spec.max = max
  return spec
}

/**
 * The form, filled from `chart` when editing; `done` gets the chart to save, `cancel` (when
 * given) adds a Cancel button.
 */
export function chartForm(
  id: string,
  chart: ChartSpec | null,
  done: (c: ChartSpec) => void,
  cancel?: () => void,
): HTMLElement {
  const c = chart ?? { title: '', dql: '', type: 'line' as ChartType }
  const stacked = h('input', { type: 'checkbox', name: 'stacked' }) as HTMLInputElement
  stacked.checked = !!c.stacked
  const f = {
    title: input('title', 'chart title', c.title),
    dql: input('dql', 'DQL', c.dql, { class: 'wide' }),
    type: select('chart-type', CHART_TYPES, c.type),
    unit: select('unit', UNITS, c.unit ?? 'auto'),
    decimals: numberInput('decimals', 'decimals', c.decimals),
    min: numberInput('min', 'y min', c.min),
    max: numberInput('max', 'y max', c.max),
    stacked,
  }
  f.decimals.classList.add('short')
  f.min.classList.add('short')
  f.max.classList.add('short')
  const error = h('span', { class: 'error', role: 'alert' })
  const submit = (e: Event) => {
    e.preventDefault()
    const spec = read(f)
    if (typeof spec === 'string') return void (error.textContent = spec)
    done(spec)
  }
  const buttons = [
    h('button', { type: 'submit' }, chart ? 'Save chart' : 'Add chart'),
    cancel ? h('button', { type: 'button', class: 'quiet', onclick: cancel }, 'Cancel') : null,
  ]
  const options = [f.unit, f.decimals, f.min, f.max, h('label', {}, stacked, ' stacked')]
  return h(
    'form',
    { id, class: 'chart-form', onsubmit: submit },
    h('div', { class: 'toolbar' }, f.title, f.dql, f.type),
    h('div', { class: 'toolbar' }, ...options, ...buttons, error),
  )
}
