/** The HTTP source's view of the pipeline: the script version workers follow, and debug runs. */
import { DebugGate } from '../pipeline/debug/gate.js'
import type { PipelineDeps } from '../pipeline/debug/types.js'
import type { PipelineWatcher } from '../pipeline/watcher.js'
import type { DecodePool } from './pool.js'

/** Debug runs go to a decode worker through a gate of `debugConcurrency` places. */
export function pipelineDeps(
  watcher: PipelineWatcher,
  pool: DecodePool,
  debugConcurrency: number,
): PipelineDeps {
  const gate = new DebugGate(debugConcurrency)
  return { version: () => watcher.version(), debug: (task) => gate.run(() => pool.debug(task)) }
}
