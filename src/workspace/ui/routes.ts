/**
 * The workspace UI under `/ui/`: a login form that takes an API key and answers with a session
 * cookie (`HttpOnly; SameSite=Strict; Path=/ui`), the app shell, its static files, and
 * `/ui/api/...`, which forwards the page's data calls to the Open API and DQL routes with the
 * session's key or token added on the server. Without a live session whose key is still valid,
 * pages redirect to the login form and data calls are 403 `InvalidApiKey`: only the form and
 * the style sheet and the icon are public. Cross-site requests never carry the cookie
 * (SameSite), and a change (POST, DELETE) must come from the UI's own origin, data changes as
 * JSON (origin.ts). Wrong keys at the form are limited per client address
 * (`../api/key-throttle.ts`).
 */
import type { Context, Hono, MiddlewareHandler } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { FerryError } from '../../errors.js'
import { readBody } from '../../http/body.js'
import type { WorkspaceDeps, WorkspaceEnv } from '../api/deps.js'
import type { ColumnSpec } from '../store/catalog.js'
import { jsonBody, ok } from '../api/envelope.js'
import { clientAddress } from '../api/key-throttle.js'
import { asset } from './assets.js'
import { checkChange } from './origin.js'
import { appPage, loginPage, SECURITY_HEADERS } from './pages.js'
import { Sessions } from './sessions.js'

export const SESSION_COOKIE = 'ferry_ui'
const MAX_SESSIONS = 1000
const SESSION_TTL_MS = 12 * 3600_000
const LOGIN_BODY_LIMIT = 4096
const PUBLIC = new Set(['/ui/login', '/ui/style.css', '/ui/favicon.svg'])

type Ctx = Context<WorkspaceEnv>

function html(c: Ctx, text: string, status: 200 | 403 | 429 = 200): Response {
  return c.html(text, status, SECURITY_HEADERS)
}

async function login(c: Ctx, deps: WorkspaceDeps, sessions: Sessions): Promise<Response> {
  const body = await readBody(c.env?.incoming, c.req.raw, LOGIN_BODY_LIMIT)
  const key = new URLSearchParams(Buffer.from(body).toString('utf8')).get('key')?.trim() ?? ''
  const client = clientAddress(c)
  const throttled = throttledLogin(c, deps, client)
  if (throttled) return throttled
  const ws = key ? await deps.accounts.byApiKey(key) : null
  if (!ws) {
    deps.events.rejected('/ui/login', new FerryError('invalidApiKey', 'the API key is not valid'))
    return html(c, loginPage('That API key is not valid.'), 403)
  }
  deps.keys.forgive(client)
  setCookie(c, SESSION_COOKIE, sessions.create(key), {
    path: '/ui',
    httpOnly: true,
    sameSite: 'Strict',
    secure: new URL(c.req.url).protocol === 'https:',
    maxAge: Math.floor(sessions.ttlMs / 1000),
  })
  return c.redirect('/ui/', 303)
}

/**
 * Admits the attempt, or answers the form again with 429 and `Retry-After` while this address
 * is over its wrong keys.
 */
function throttledLogin(c: Ctx, deps: WorkspaceDeps, client: string): Response | null {
  const seconds = deps.keys.retryAfter(client)
  if (seconds === 0) {
    deps.keys.admit(client)
    return null
  }
  const text = `Too many wrong keys from this address: try again in ${seconds} s.`
  deps.events.rejected('/ui/login', new FerryError('tooManyKeyAttempts', text))
  const page = html(c, loginPage(text), 429)
  page.headers.set('Retry-After', String(seconds))
  return page
}

/** Forwards a data call to a route of this app, its JSON body read here within the limit. */
async function forward(c: Ctx, app: Hono<WorkspaceEnv>, deps: WorkspaceDeps, target: string) {
  const init: RequestInit = { method: c.req.method, headers: { 'DF-API-KEY': c.get('apiKey') } }
  if (c.req.method === 'POST' || c.req.method === 'DELETE') {
    init.body = JSON.stringify(await jsonBody(c, deps.config.max_body_size))
    init.headers = { ...init.headers, 'Content-Type': 'application/json' }
  }
  // The client's address goes along: the Open API counts wrong keys by it.
  return app.fetch(new Request(new URL(target, c.req.url), init), { client: clientAddress(c) })
}

/** Lets through the public files and requests with a live session of a still valid key. */
function guard(deps: WorkspaceDeps, sessions: Sessions): MiddlewareHandler<WorkspaceEnv> {
  return async (c, next) => {
    checkChange(c)
    if (PUBLIC.has(c.req.path)) return next()
    const key = sessions.key(getCookie(c, SESSION_COOKIE))
    const ws = key ? await deps.accounts.byApiKey(key) : null
    if (!key || !ws) {
      if (c.req.path.startsWith('/ui/api/'))
        throw new FerryError('invalidApiKey', 'log in at /ui/login first')
      return c.redirect('/ui/login', 303)
    }
    c.set('workspace', ws)
    // Here the whole key: forward() hands it on to the Open API routes.
    c.set('apiKey', key)
    return next()
  }
}

export function uiRoutes(app: Hono<WorkspaceEnv>, deps: WorkspaceDeps): void {
  const sessions = new Sessions(MAX_SESSIONS, SESSION_TTL_MS)
  app.use('/ui/*', guard(deps, sessions))
  app.get('/ui', (c) => c.redirect('/ui/', 301))
  app.get('/ui/login', (c) => html(c, loginPage('')))
  app.post('/ui/login', (c) => login(c, deps, sessions))
  app.post('/ui/logout', (c) => {
    sessions.end(getCookie(c, SESSION_COOKIE))
    deleteCookie(c, SESSION_COOKIE, { path: '/ui' })
    return c.redirect('/ui/login', 303)
  })
  app.get('/ui/', (c) => html(c, appPage()))
  app.get('/ui/:dir{app|vendor}/:file', (c) =>
    serve(c, `${c.req.param('dir')}/${c.req.param('file')}`),
  )
  app.get('/ui/style.css', (c) => serve(c, 'style.css'))
  app.get('/ui/favicon.svg', (c) => serve(c, 'favicon.svg'))
  // Browsers ask for /favicon.ico on every page of the origin, whatever the page links.
  app.get('/favicon.ico', (c) => serve(c, 'favicon.svg'))
  app.post('/ui/api/query', (c) =>
    forward(c, app, deps, `/v1/query/raw?token=${c.get('workspace').token}`),
  )
  app.on(['POST', 'DELETE'], '/ui/api/labels', (c) =>
    forward(c, app, deps, `/v1/object/labels?token=${c.get('workspace').token}`),
  )
  app.get('/ui/api/sources', (c) =>
    ok(c, sources(deps.engine.catalog.tableNames(c.get('workspace').id))),
  )
  app.get('/ui/api/columns', (c) => {
    const info = deps.engine.catalog.table(c.get('workspace').id, c.req.query('source') ?? '')
    if (!info) throw new FerryError('objectNotFound', `no source ${c.req.query('source') ?? ''}`)
    return ok(c, columns(info.columns))
  })
  app.all('/ui/api/v1/*', (c) => {
    const url = new URL(c.req.url)
    return forward(c, app, deps, `/api/v1/${url.pathname.slice('/ui/api/v1/'.length)}${url.search}`)
  })
}

/** The stored sources by namespace (`{"L": ["nginx"], "M": ["cpu"]}`), sorted, for pickers. */
function sources(tables: string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const t of [...tables].sort()) {
    const at = t.indexOf('::')
    ;(out[t.slice(0, at)] ??= []).push(t.slice(at + 2))
  }
  return out
}

/** A source's columns for Explore's pickers: fields (with their type) and tags, by name. */
function columns(cols: ColumnSpec[]): { fields: { name: string; type: string }[]; tags: string[] } {
  const sorted = [...cols].sort((a, b) => a.name.localeCompare(b.name))
  return {
    fields: sorted.filter((x) => x.kind !== 'tag').map(({ name, type }) => ({ name, type })),
    tags: sorted.filter((x) => x.kind === 'tag').map((x) => x.name),
  }
}

function serve(c: Ctx, name: string): Response {
  const found = asset(name)
  if (!found) throw new FerryError('routerNotFound', `no UI file ${name} (run npm run build)`)
  return c.body(new Uint8Array(found.body), 200, {
    ...SECURITY_HEADERS,
    'Content-Type': found.type,
  })
}
