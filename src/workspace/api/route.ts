/**
 * One route of the Open API with the methods it answers: another method on a known route is
 * 405 with `Allow`, logged and counted. GET routes answer HEAD too.
 */
import type { Context, Hono } from 'hono'
import { FerryError } from '../../errors.js'
import type { WorkspaceDeps, WorkspaceEnv } from './deps.js'
import { errorResponse } from './envelope.js'

export type Handler = (c: Context<WorkspaceEnv>) => Promise<Response>

type Method = 'GET' | 'POST'

export type Route = (method: Method | Method[], paths: string[], h: Handler) => void

export function router(app: Hono<WorkspaceEnv>, deps: WorkspaceDeps): Route {
  return (method, paths, h) => {
    const methods: string[] = Array.isArray(method) ? [...method] : [method]
    if (methods.includes('GET')) methods.push('HEAD')
    const allow = methods.filter((m) => m !== 'HEAD').join(', ')
    for (const path of paths)
      app.all(path, (c) => {
        if (methods.includes(c.req.method)) return h(c)
        const err = new FerryError(
          'methodNotAllowed',
          `${c.req.method} ${c.req.path}: use ${allow}`,
        )
        deps.events.rejected(path, err)
        return errorResponse(err, c.get('traceId'), { Allow: allow })
      })
  }
}

/** A request's body, read with its limit. */
export type Body = (c: Context<WorkspaceEnv>) => Promise<unknown>

/**
 * Reads and checks a body with `parse`, logging and counting the fields the operation does not
 * document; returns the checked input.
 */
export function checkedBody(deps: WorkspaceDeps, body: Body) {
  return async <T>(
    c: Context<WorkspaceEnv>,
    operation: string,
    parse: (b: unknown) => { input: T; undocumented: string[] },
  ): Promise<T> => {
    const p = parse(await body(c))
    deps.events.undocumentedFields(operation, p.undocumented)
    return p.input
  }
}

/** Logs and counts the query parameters of a request that its operation does not document. */
export function checkQuery(
  deps: WorkspaceDeps,
  c: Context<WorkspaceEnv>,
  operation: string,
  documented: string[],
): void {
  const extra = Object.keys(c.req.query()).filter((k) => !documented.includes(k))
  deps.events.undocumentedFields(operation, extra)
}
