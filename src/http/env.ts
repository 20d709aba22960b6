/** The Hono environment of Ferry's HTTP servers (agent and workspace). */
import type { IncomingMessage } from 'node:http'

/** Hono environment: @hono/node-server passes the Node request as `incoming`. */
export interface HttpEnv {
  Bindings: { incoming?: IncomingMessage }
  /**
   * `signal.aborted` turns true when the request timed out (set by the timeout middleware);
   * `headersInPlace` says the answer's headers may be set in place (the agent's CORS middleware,
   * `finishedHeaders`).
   */
  Variables: { signal: { readonly aborted: boolean }; headersInPlace: boolean }
}
