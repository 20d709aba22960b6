/**
 * A config reload (SIGHUP) applied to the running agent's parts: what can change live (see
 * reload.ts) is applied, the rest waits for a restart, and says so.
 *
 * Invariant: input files are checked first, so a wrong one throws before anything changes and
 * everything keeps running as it was.
 */
import type { LoadedConfig } from '../config/load.js'
import { INPUT_KINDS, planInputs } from '../inputs/build.js'
import type { Inputs } from '../inputs/inputs.js'
import type { PipelineWatcher } from '../pipeline/watcher.js'
import { mergeLive, planReload, type ReloadPlan } from '../reload.js'
import type { AccessPolicy } from '../sources/http/access/policy.js'
import type { GlobalTags } from '../tags/global-tags.js'
import type { Events } from '../telemetry/events.js'
import type { Logger } from '../telemetry/logger.js'
import { logReloaded } from './log.js'

/** The parts a reload touches. */
export interface LiveParts {
  readonly tags: GlobalTags
  readonly access: AccessPolicy
  readonly log: Logger
  readonly watcher: PipelineWatcher | null
  readonly inputs: Inputs
  readonly events: Events
}

/** Returns the plan and the config to keep running (`running` with `next`'s live keys). */
export function applyReload(
  a: LiveParts,
  running: LoadedConfig,
  next: LoadedConfig,
): { plan: ReloadPlan; loaded: LoadedConfig } {
  const inputs = planInputs(next, INPUT_KINDS)
  const plan = planReload(running.config, next.config)
  const cfg = next.config
  const live = new Set(plan.live)
  if (live.has('global_host_tags') || live.has('election.tags'))
    a.tags.replace(cfg.global_host_tags, cfg.election.tags)
  a.access.update(cfg.http_api)
  a.log.level = cfg.logging.level
  a.watcher?.poll()
  void a.inputs.reload(inputs).catch((e) => a.events.internalError('inputs reload', e))
  // Keys that need a restart keep their running values, so the next plan still reports them.
  const loaded = { ...next, config: mergeLive(running.config, cfg, live) }
  logReloaded(a.log, plan)
  return { plan, loaded }
}
