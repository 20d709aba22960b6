/**
 * The dashboard list of the Open API: open, create (by name; it opens in edit mode) and delete.
 * A dashboard's charts live in its `extend` (`{charts: [{title, dql, type}]}`) and its
 * template variables in `templateInfos` (`{variables: [{name, dql}]}`), so any Open API
 * client can read and write them too.
 */
import { call } from './api.js'
import { fill, formatTime, h } from './dom.js'

export interface ChartSpec {
  title: string
  dql: string
  type: 'line' | 'bar' | 'table'
}

export interface Variable {
  name: string
  dql: string
}

export interface Dashboard {
  uuid: string
  name: string
  desc: string
  extend: { charts?: ChartSpec[] }
  templateInfos: { variables?: Variable[] }
  updateAt: number
}

export async function dashboardsPage(main: HTMLElement): Promise<void> {
  const list = await call<Dashboard[]>('v1/dashboard/list?pageSize=100')
  const name = h('input', {
    name: 'name',
    placeholder: 'new dashboard name',
    required: true,
  }) as HTMLInputElement
  const create = async () => {
    const d = await call<Dashboard>('v1/dashboard/create', {
      name: name.value.trim(),
      extend: { charts: [] },
      templateInfos: { variables: [] },
    })
    location.assign(`#/dashboard/${d.uuid}?edit=1`)
  }
  const remove = async (d: Dashboard) => {
    if (!confirm(`Delete the dashboard ${d.name}?`)) return
    await call(`v1/dashboard/${d.uuid}/delete`, {})
    await dashboardsPage(main)
  }
  fill(
    main,
    h('h1', {}, 'Dashboards'),
    h(
      'form',
      {
        class: 'toolbar',
        id: 'create-dashboard',
        onsubmit: (e) => (e.preventDefault(), void create()),
      },
      name,
      h('button', { type: 'submit' }, 'Create'),
    ),
    list.length
      ? h(
          'table',
          { class: 'rows', id: 'dashboards' },
          h(
            'tr',
            {},
            h('th', {}, 'name'),
            h('th', {}, 'charts'),
            h('th', {}, 'updated'),
            h('th', {}),
          ),
          ...list.map((d) =>
            h(
              'tr',
              {},
              h('td', {}, h('a', { href: `#/dashboard/${d.uuid}` }, d.name)),
              h('td', {}, String(d.extend?.charts?.length ?? 0)),
              h('td', {}, formatTime(d.updateAt * 1000)),
              h(
                'td',
                {},
                h('button', { class: 'danger', onclick: () => void remove(d) }, 'Delete'),
              ),
            ),
          ),
        )
      : h('p', { class: 'empty' }, 'No dashboards yet.'),
  )
}
