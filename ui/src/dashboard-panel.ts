/**
 * One chart of a dashboard: its title, its chart drawn from its DQL (variables substituted,
 * the automatic interval added: about 300 points for lines, fewer and wider for bars; a table
 * is a summary and runs as written; a long one scrolls in its box), and in edit mode its
 * controls: move up, move down, edit (the chart form in place), remove. The studio's own
 * charts can also be dragged onto another to take its place; the buttons do the same from the
 * keyboard.
 */
import { ApiError, dql } from './api.js'
import { drawChart } from './chart.js'
import { barPoints } from './chart-style.js'
import type { ChartSpec } from './dashboard-model.js'
import { fill, h } from './dom.js'
import { namespaceOf, withInterval } from './dql-text.js'
import { spanOf, resolveRange, type ViewRange } from './range.js'

/** `#{name}` replaced by the variable's value (unknown names are left as written). */
export function substitute(query: string, values: Record<string, string>): string {
  return query.replace(/#\{(\w+)\}/g, (m, name: string) => values[name] ?? m)
}

/** What a panel in edit mode can ask for; absent for charts the studio only shows. */
export interface PanelEdits {
  move(by: -1 | 1): void
  /** Moves the chart dragged (by its index) to this one's place. */
  dropped(from: number): void
  edit(): void
  remove(): void
}

/** The dashboard's view a panel draws for. */
export interface PanelView {
  vars: Record<string, string>
  range: ViewRange
  zoom: (picked: [number, number]) => void
}

const DRAG_TYPE = 'application/x-ferry-chart'

function controls(index: number, e: PanelEdits): HTMLElement {
  const button = (text: string, label: string, onclick: () => void, cls = 'quiet') =>
    h('button', { type: 'button', class: cls, title: label, 'aria-label': label, onclick }, text)
  return h(
    'span',
    { class: 'panel-controls' },
    button('↑', `move chart ${index + 1} up`, () => e.move(-1)),
    button('↓', `move chart ${index + 1} down`, () => e.move(1)),
    button('⚙', `edit chart ${index + 1}`, e.edit),
    button('×', `remove chart ${index + 1}`, e.remove, 'danger'),
  )
}

function draggable(el: HTMLElement, index: number, e: PanelEdits): void {
  el.draggable = true
  el.addEventListener('dragstart', (ev) => ev.dataTransfer?.setData(DRAG_TYPE, String(index)))
  el.addEventListener('dragover', (ev) => {
    if (!ev.dataTransfer?.types.includes(DRAG_TYPE)) return
    ev.preventDefault()
    el.classList.add('drop-target')
  })
  el.addEventListener('dragleave', () => el.classList.remove('drop-target'))
  el.addEventListener('drop', (ev) => {
    ev.preventDefault()
    el.classList.remove('drop-target')
    const from = Number(ev.dataTransfer?.getData(DRAG_TYPE))
    if (Number.isInteger(from) && from !== index) e.dropped(from)
  })
}

export function panel(spec: ChartSpec, index: number, edits: PanelEdits | null): HTMLElement {
  const head = h('h3', {}, h('span', {}, spec.title), edits ? controls(index, edits) : null)
  const el = h('section', { class: 'panel' }, head, h('div', { class: 'chart' }))
  if (edits) draggable(el, index, edits)
  return el
}

/** Runs one chart's query and draws it, or its error, into `el`. */
export async function drawPanel(el: HTMLElement, c: ChartSpec, view: PanelView): Promise<void> {
  const shown = resolveRange(view.range)
  const points = c.type === 'bar' ? barPoints(el.clientWidth || 480) : 300
  const written = substitute(c.dql, view.vars)
  const unset = /#\{(\w+)\}/.exec(written)
  if (unset)
    return void fill(
      el,
      h('p', { class: 'empty' }, `The query uses ${unset[0]}: add that variable.`),
    )
  // A table is a summary (`last(x) BY host`): its query runs as written, one row per group.
  const q = c.type === 'table' ? written : withInterval(written, spanOf(view.range), points)
  try {
    const r = await dql(q, { time_range: shown })
    const opts = { ...c, ns: namespaceOf(q), dragOnly: true }
    drawChart(el, r.series, c.type, shown, 200, view.zoom, opts)
  } catch (e) {
    const text = e instanceof ApiError ? `${e.errorCode}: ${e.message}` : String(e)
    fill(el, h('p', { class: 'error' }, text))
  }
}
