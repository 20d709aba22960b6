/** Builds the inputs component of an agent: its plan, its events, and the write path it uses. */
import type { LoadedConfig } from '../config/load.js'
import type { Identity } from '../identity.js'
import { createInputMetrics, InputEvents } from '../telemetry/input-events.js'
import type { InputEnv } from './input.js'
import { Inputs } from './inputs.js'
import { INPUT_KINDS } from './kinds.js'
import { planInputs } from './plan.js'
import { Submitter, type SubmitDeps } from './submit.js'

export { planInputs, INPUT_KINDS }

/** Throws configInvalid when an input file is wrong, before anything starts. */
export function createInputs(
  loaded: LoadedConfig,
  id: Identity,
  deps: Omit<SubmitDeps, 'maxPoints'>,
): Inputs {
  const events = new InputEvents(
    deps.events.log,
    createInputMetrics(deps.events.metrics.registry),
    deps.events.recent,
  )
  const env: InputEnv = {
    host: id.host,
    version: id.version,
    dataDir: loaded.config.agent.data_dir,
    events,
    collectorErrors: () =>
      deps.events.recent
        .list()
        .filter((e) => e.kind === 'input')
        .map((e) => ({ input: e.source, message: e.message, at: e.at })),
  }
  const maxPoints = loaded.config.http_api.max_points_per_request
  return new Inputs(planInputs(loaded, INPUT_KINDS), new Submitter({ ...deps, maxPoints }), env)
}
