/** What a workspace request carries through Hono: its socket, and what the routes learn of it. */
import type { IncomingMessage } from 'node:http'
import type { Workspace } from '../store/accounts.js'

export interface WorkspaceEnv {
  /** `client`: the address of the request an in-process call is made for (UI forwarding). */
  Bindings: { incoming?: IncomingMessage; client?: string }
  /** `apiKey`: the UI session's key; `keyId`: the id of the Open API request's key. */
  Variables: { traceId: string; workspace: Workspace; apiKey: string; keyId: string }
}
