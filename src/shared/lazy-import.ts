/**
 * Loads one of the agent's own modules on first use, `spec` relative to the caller's
 * `import.meta.url`. Compiled, a dynamic import. Under tsx (tests, `npm run dev`) a worker
 * thread has only tsx's CommonJS hook: its modules are required, and a dynamic import of the
 * TypeScript source fails there, so the module is required through that hook (the same cache as
 * the thread's other modules); the HTTP thread, which has tsx's import hooks, imports it.
 */
import { createRequire } from 'node:module'
import { isMainThread } from 'node:worker_threads'

export async function lazyImport<T>(spec: string, base: string): Promise<T> {
  if (isMainThread || !base.endsWith('.ts')) return (await import(new URL(spec, base).href)) as T
  return createRequire(base)(spec) as T
}
