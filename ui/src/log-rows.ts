/**
 * One row of the logs list (time, status in its colour, service, message) and the pane a
 * click on it fills with every field the row has.
 */
import type { Row } from './api.js'
import { cell } from './chart.js'
import { fill, formatTime, h } from './dom.js'

function detail(pane: HTMLElement, row: Row): void {
  const fields = Object.entries(row).filter(([, v]) => v !== null && v !== undefined)
  fill(
    pane,
    h('h2', {}, 'Log detail'),
    h(
      'table',
      { class: 'fields' },
      ...fields.map(([k, v]) =>
        h('tr', {}, h('th', {}, k), h('td', {}, k === 'time' ? formatTime(Number(v)) : cell(v))),
      ),
    ),
  )
}

export function logRow(row: Row, pane: HTMLElement): HTMLElement {
  return h(
    'tr',
    { onclick: () => detail(pane, row) },
    h('td', {}, formatTime(Number(row.time))),
    h('td', { class: `st-${cell(row.status)}` }, cell(row.status)),
    h('td', {}, cell(row.service)),
    h('td', { class: 'msg' }, cell(row.message)),
  )
}
