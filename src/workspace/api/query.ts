/** `POST /v1/query/raw?token=`: DQL queries over the token's workspace (agent spec 4.16). */
import type { Hono } from 'hono'
import { runQueries } from '../dql/execute.js'
import type { WorkspaceDeps, WorkspaceEnv } from './deps.js'
import { jsonBody, ok } from './envelope.js'
import { byToken } from './ingest.js'

/**
 * The `content` of a failed query's answer: one result with no series, not null. The agent
 * hands the answer on with 200 as the reference does, and real clients (DataFlux Func's
 * DataKit client) read `content[0].series` before they look at `success`, so a null there
 * would crash them instead of showing the error in `errorCode` and `message`.
 */
export const FAILED_QUERY_CONTENT = [{ series: [] }]

export function queryRoutes(app: Hono<WorkspaceEnv>, deps: WorkspaceDeps): void {
  app.post('/v1/query/raw', async (c) => {
    const started = performance.now()
    // The agent forwards `token` in the body too; the query parameter decides.
    const ws = await byToken(c, deps)
    const body = await jsonBody(c, deps.config.max_body_size)
    const results = await runQueries(
      {
        engine: deps.engine,
        workspaceId: ws.id,
        maxRows: deps.config.max_result_rows,
        timeoutMs: deps.config.query_timeout,
      },
      body,
    )
    deps.events.queried((performance.now() - started) / 1000)
    return ok(c, results)
  })
}
