/**
 * The time range control of Explore and dashboards: the relative choices, "custom range" with
 * a from and a to (local time, to the second) and Apply, and a zoom-out button. A range set
 * from outside (a drag on a chart) shows as custom with its ends filled in. `onChange` gets
 * every new range; the page runs its queries and writes the URL.
 */
import { h, select } from './dom.js'
import { localInput, parseLocalInput, resolveRange, zoomOut, type ViewRange } from './range.js'
import { RANGES } from './time.js'

export interface RangePicker {
  el: HTMLElement
  value(): ViewRange
  set(r: ViewRange): void
}

const CUSTOM = 'custom'

export function rangePicker(initial: ViewRange, onChange: (r: ViewRange) => void): RangePicker {
  let current = initial
  const relative = 'last' in initial ? initial.last : ''
  const extra: [string, string][] =
    relative && !RANGES.some(([v]) => v === relative) ? [[relative, `last ${relative}`]] : []
  const choice = select('range', [...RANGES, ...extra, [CUSTOM, 'custom range…']], CUSTOM)
  const input = (name: string, label: string) =>
    h('input', { type: 'datetime-local', step: '1', name, 'aria-label': label }) as HTMLInputElement
  const [from, to] = [input('from', 'from'), input('to', 'to')]
  const error = h('span', { class: 'error', role: 'alert' })
  const apply = h('button', { type: 'button', id: 'range-apply' }, 'Apply')
  const custom = h('span', { class: 'range-custom' }, from, '→', to, apply, error)
  const show = (r: ViewRange) => {
    current = r
    choice.value = 'last' in r ? r.last : CUSTOM
    const [a, b] = resolveRange(r)
    ;[from.value, to.value] = [localInput(a), localInput(b)]
    custom.hidden = 'last' in r
    error.textContent = ''
  }
  const change = (r: ViewRange) => (show(r), onChange(r))
  choice.addEventListener('change', () => {
    if (choice.value !== CUSTOM) return change({ last: choice.value })
    custom.hidden = false
    from.focus()
  })
  apply.addEventListener('click', () => {
    const [a, b] = [parseLocalInput(from.value), parseLocalInput(to.value)]
    if (a === null || b === null || b <= a)
      return void (error.textContent = 'from and to must be times, from before to')
    change({ from: a, to: b })
  })
  const out = h('button', { type: 'button', class: 'quiet', id: 'zoom-out' }, 'zoom out')
  out.addEventListener('click', () => change(zoomOut(current)))
  show(initial)
  const el = h('span', { class: 'range-picker', id: 'range-picker' }, choice, custom, out)
  return { el, value: () => current, set: show }
}
