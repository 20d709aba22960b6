/** A real workspace service and its Hono app, for tests through `app.request()`. */
import { Registry } from 'prom-client'
import { createWorkspaceApp } from '../../src/workspace/api/app.js'
import { startWorkspace, type TestWorkspace } from './workspace.js'

export type WorkspaceApp = ReturnType<typeof createWorkspaceApp>

export async function startWorkspaceApp(): Promise<{ w: TestWorkspace; app: WorkspaceApp }> {
  const w = await startWorkspace()
  return { w, app: createWorkspaceApp(w.service.deps!, new Registry()) }
}
