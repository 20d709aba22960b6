/**
 * Where the worker entry files are, for every pool and thread: `workers/<name>.worker.js` beside
 * the compiled tree, or the `.ts` source when running under tsx (tests, `npm run dev`).
 */
import { fileURLToPath } from 'node:url'

export type WorkerName = 'decode' | 'upload-decode' | 'workspace' | 'http-request'

const FROM_HERE = '../../workers/'

/** The worker file's URL, for Piscina (which brings tsx's hooks into its threads). */
export function workerFile(name: WorkerName): string {
  const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js'
  return new URL(`${FROM_HERE}${name}.worker.${ext}`, import.meta.url).href
}

/**
 * An entry for a plain `worker_threads` Worker. Compiled, the module itself. Under tsx a worker
 * starts before tsx's ESM hooks exist in the new thread, so a one-line module requires the
 * TypeScript source through tsx's CommonJS hook instead.
 */
export function workerEntry(name: WorkerName): URL {
  if (!import.meta.url.endsWith('.ts')) return new URL(workerFile(name))
  const file = JSON.stringify(fileURLToPath(workerFile(name)))
  const code = `import { createRequire } from 'node:module'; createRequire(${file})(${file})`
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`)
}
