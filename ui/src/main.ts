/**
 * The UI's entry: a hash router (`#/explore`, `#/hosts`, `#/host/<name>`, `#/logs`,
 * `#/dashboards`, `#/dashboard/<id>`, `#/rum`, `#/traces`, `#/trace/<id>`, `#/services`)
 * that draws one page into `<main>`. A page that fails to load shows the error in its place;
 * the navigation stays usable.
 */
import { dashboardPage } from './dashboard.js'
import { dashboardsPage } from './dashboards.js'
import { fill, h } from './dom.js'
import { explorePage } from './explore.js'
import { hostPage } from './host.js'
import { hostsPage } from './hosts.js'
import { logsPage } from './logs.js'
import { rumPage } from './rum.js'
import { servicesPage } from './services.js'
import { tracePage } from './trace.js'
import { tracesPage } from './traces.js'

const main = document.getElementById('main')!

async function route(): Promise<void> {
  const hash = location.hash.replace(/^#\/?/, '')
  const [path, query = ''] = hash.split('?')
  const params = new URLSearchParams(query)
  const [page, arg = ''] = path.split('/').map(decodeURIComponent)
  for (const a of document.querySelectorAll('header nav a'))
    a.classList.toggle('active', a.getAttribute('href') === `#/${page}`)
  main.dataset.page = page || 'explore'
  if (page === 'hosts') return hostsPage(main)
  if (page === 'host') return hostPage(main, arg, params)
  if (page === 'logs') return logsPage(main, params)
  if (page === 'dashboards') return dashboardsPage(main)
  if (page === 'dashboard') return dashboardPage(main, arg, params)
  if (page === 'rum') return rumPage(main, params)
  if (page === 'traces') return tracesPage(main, params)
  if (page === 'trace') return tracePage(main, arg)
  if (page === 'services') return servicesPage(main, params)
  return explorePage(main, params)
}

function go(): void {
  main.removeAttribute('data-ready')
  route()
    .catch((e: unknown) =>
      fill(main, h('p', { class: 'error', role: 'alert' }, String((e as Error).message ?? e))),
    )
    .finally(() => main.setAttribute('data-ready', ''))
}

window.addEventListener('hashchange', go)
go()
