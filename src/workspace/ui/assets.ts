/**
 * The UI's static files: the page scripts compiled by `npm run build` (`dist/ui/*.js`), the
 * style sheet beside their sources (`ui/style.css`) and the chart library's files from its npm
 * package. Only names listed here or matching `SCRIPT_NAME` are served, so no request path can
 * reach another file. Files are read once and kept in memory (they are small).
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export interface Asset {
  body: Buffer
  type: string
}

/** The repository root: three folders up from the source, four from the compiled file. */
const ROOT = fileURLToPath(
  new URL(import.meta.url.endsWith('.ts') ? '../../../' : '../../../../', import.meta.url),
)
const SCRIPT_NAME = /^[a-z][a-z0-9-]*\.js$/
const require = createRequire(import.meta.url)

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
}

/** The files served under `/ui/vendor/` and `/ui/`, by name. */
const FIXED: Record<string, () => string> = {
  'vendor/uPlot.esm.js': () => require.resolve('uplot/dist/uPlot.esm.js'),
  'vendor/uPlot.min.css': () => require.resolve('uplot/dist/uPlot.min.css'),
  'style.css': () => path.join(ROOT, 'ui', 'style.css'),
  'favicon.svg': () => path.join(ROOT, 'ui', 'favicon.svg'),
}

const cache = new Map<string, Asset | null>()

function load(file: string): Asset | null {
  try {
    return { body: fs.readFileSync(file), type: TYPES[path.extname(file)] ?? 'text/plain' }
  } catch {
    return null
  }
}

/** The file for a path below `/ui/` (`app/main.js`, `vendor/uPlot.esm.js`), or null. */
export function asset(name: string): Asset | null {
  if (cache.has(name)) return cache.get(name)!
  let file: string | null = null
  if (FIXED[name]) file = FIXED[name]()
  else if (name.startsWith('app/') && SCRIPT_NAME.test(name.slice(4)))
    file = path.join(ROOT, 'dist', 'ui', name.slice(4))
  const found = file ? load(file) : null
  // Missing scripts are not cached: a build may produce them while the service runs.
  if (found) cache.set(name, found)
  return found
}
