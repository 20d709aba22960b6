/**
 * A dashboard's edit mode: rename it, add a chart (with its display options) or a variable,
 * remove a variable, and move, edit or remove a chart. Every change is saved at once through
 * the Open API's modify (`name`, or the whole `extend`) and the page is drawn again from what
 * was stored; a refused change (a name already taken) is shown, nothing else changes.
 */
import { ApiError } from './api.js'
import { chartForm } from './chart-form.js'
import type { ChartSpec, Dashboard } from './dashboard-model.js'
import type { PanelEdits } from './dashboard-panel.js'
import { fill, h } from './dom.js'

/** Saves a change (`extend` when none is given) and draws the page again. */
export type Save = (change?: Record<string, unknown>) => Promise<void>

/** Runs a save, showing its failure in `status`. */
export function saving(save: Save, status: HTMLElement): Save {
  return (change) =>
    save(change).catch((e: unknown) => {
      const text = e instanceof ApiError ? `${e.errorCode}: ${e.message}` : String(e)
      fill(status, h('span', { class: 'error', role: 'alert' }, `Not saved: ${text}`))
    })
}

/** The dashboard's name as an input with Rename. */
export function renameForm(d: Dashboard, save: Save): HTMLElement {
  const name = h('input', {
    name: 'dashboard-name',
    value: d.name,
    required: true,
    'aria-label': 'dashboard name',
  }) as HTMLInputElement
  const submit = (e: Event) => {
    e.preventDefault()
    if (name.value.trim() && name.value.trim() !== d.name) void save({ name: name.value.trim() })
  }
  return h(
    'form',
    { id: 'rename-dashboard', class: 'toolbar', onsubmit: submit },
    name,
    h('button', { type: 'submit' }, 'Rename'),
  )
}

/** Add a chart and add a variable. */
export function addForms(d: Dashboard, save: Save): HTMLElement {
  const addChart = (c: ChartSpec) => ((d.extend.charts ??= []).push(c), void save())
  const input = (name: string, placeholder: string, wide = false) =>
    h('input', {
      name,
      placeholder,
      'aria-label': placeholder,
      required: true,
      class: wide ? 'wide' : undefined,
    }) as HTMLInputElement
  const [vName, vQuery] = [
    input('var-name', 'variable (host)'),
    input('var-dql', "values DQL (show_tag_value(from=['cpu'], keyin=['host']))", true),
  ]
  const addVar = (e: Event) => {
    e.preventDefault()
    ;(d.extend.variables ??= []).push({ name: vName.value.trim(), dql: vQuery.value.trim() })
    void save()
  }
  return h(
    'div',
    { class: 'editor' },
    chartForm('add-chart', null, addChart),
    h(
      'form',
      { id: 'add-variable', class: 'toolbar', onsubmit: addVar },
      vName,
      vQuery,
      h('button', { type: 'submit' }, 'Add variable'),
    ),
  )
}

/** The edits of the studio's own chart `i`, drawn in `grid`. */
export function chartEdits(d: Dashboard, i: number, grid: HTMLElement, save: Save): PanelEdits {
  const own = d.extend.charts!
  const moveTo = (to: number) => {
    if (to < 0 || to >= own.length || to === i) return
    const [c] = own.splice(i, 1)
    own.splice(to, 0, c)
    void save()
  }
  return {
    move: (by) => moveTo(i + by),
    dropped: (from) => {
      const [c] = own.splice(from, 1)
      own.splice(i, 0, c)
      void save()
    },
    remove: () => (own.splice(i, 1), void save()),
    edit: () => {
      const el = grid.children[i] as HTMLElement
      const done = (c: ChartSpec) => ((own[i] = c), void save())
      const cancel = () => void save()
      fill(el, chartForm('edit-chart', own[i], done, cancel))
      el.draggable = false
    },
  }
}
