/**
 * The dashboard list of the Open API: open, create (by name; it opens in edit mode) and delete.
 * The studio keeps a dashboard's charts and template variables in its `extend`
 * (`{charts: [{title, dql, type, unit?, decimals?, stacked?, min?, max?}], variables:
 * [{name, dql}]}`), so any Open API client can read and write them too; the charts and
 * variables of its documented template (`templateInfo`) are drawn beside them (template.ts).
 */
import { call } from './api.js'
import { fill, formatTime, h, row } from './dom.js'
import { templateCharts } from './template.js'
import type { Dashboard } from './dashboard-model.js'

function listTable(list: Dashboard[], remove: (d: Dashboard) => void): HTMLElement {
  const rows = list.map((d) =>
    row([
      h('a', { href: `#/dashboard/${d.uuid}` }, d.name),
      String((d.extend?.charts?.length ?? 0) + templateCharts(d.templateInfo ?? {}).length),
      formatTime(d.updateAt * 1000),
      h('button', { class: 'danger', onclick: () => remove(d) }, 'Delete'),
    ]),
  )
  const head = row(['name', 'charts', 'updated', ''], true)
  return h('table', { class: 'rows', id: 'dashboards' }, head, ...rows)
}

export async function dashboardsPage(main: HTMLElement): Promise<void> {
  const list = await call<Dashboard[]>('v1/dashboard/list?pageSize=100')
  const attrs = { name: 'name', placeholder: 'new dashboard name', required: true }
  const name = h('input', attrs) as HTMLInputElement
  const create = async (e: Event) => {
    e.preventDefault()
    const empty = { extend: { charts: [], variables: [] } }
    const d = await call<Dashboard>('v1/dashboard/create', { name: name.value.trim(), ...empty })
    location.assign(`#/dashboard/${d.uuid}?edit=1`)
  }
  const remove = async (d: Dashboard) => {
    if (!confirm(`Delete the dashboard ${d.name}?`)) return
    await call(`v1/dashboard/${d.uuid}/delete`, {})
    await dashboardsPage(main)
  }
  const submit = h('button', { type: 'submit' }, 'Create')
  fill(
    main,
    h('h1', {}, 'Dashboards'),
    h('form', { class: 'toolbar', id: 'create-dashboard', onsubmit: create }, name, submit),
    list.length
      ? listTable(list, (d) => void remove(d))
      : h('p', { class: 'empty' }, 'No dashboards yet.'),
  )
}
