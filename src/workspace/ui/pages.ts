/**
 * The UI's two HTML documents: the login form (the only page served without a session) and the
 * shell of the single-page app. Every answer carries a Content-Security-Policy that allows only
 * this origin's scripts and styles, plus the one inline import map by its hash: no external
 * fonts, scripts or CDNs can load, and an injected inline script would not run.
 */
import crypto from 'node:crypto'

const IMPORT_MAP = JSON.stringify({ imports: { uplot: '/ui/vendor/uPlot.esm.js' } })
const MAP_HASH = crypto.createHash('sha256').update(IMPORT_MAP).digest('base64')

export const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': [
    "default-src 'self'",
    `script-src 'self' 'sha256-${MAP_HASH}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; '),
  'X-Content-Type-Options': 'nosniff',
  // Not `no-referrer`: under it a browser sends `Origin: null` on the UI's own form posts,
  // and changes are accepted by their origin (origin.ts). Other sites still get no referrer.
  'Referrer-Policy': 'same-origin',
  'Cache-Control': 'no-store',
}

const escape = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

export function loginPage(error: string): string {
  const message = error ? `<p class="error" role="alert">${escape(error)}</p>` : ''
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Ferry workspace · log in</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/ui/style.css"><link rel="icon" href="/ui/favicon.svg" type="image/svg+xml"></head>
<body class="login"><form method="post" action="/ui/login">
<h1>Ferry workspace</h1>
<label>API key <input name="key" type="password" autocomplete="off" required autofocus></label>
${message}<button type="submit">Log in</button></form></body></html>
`
}

export function appPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Ferry workspace</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/ui/vendor/uPlot.min.css">
<link rel="stylesheet" href="/ui/style.css"><link rel="icon" href="/ui/favicon.svg" type="image/svg+xml">
<script type="importmap">${IMPORT_MAP}</script>
<script type="module" src="/ui/app/main.js"></script></head>
<body><header><strong>Ferry</strong><nav>
<a href="#/explore">Explore</a><a href="#/hosts">Hosts</a><a href="#/logs">Logs</a>
<a href="#/dashboards">Dashboards</a><a href="#/rum">RUM</a>
<a href="#/traces">Traces</a><a href="#/services">Services</a></nav>
<form method="post" action="/ui/logout"><button type="submit">Log out</button></form></header>
<main id="main"></main></body></html>
`
}
