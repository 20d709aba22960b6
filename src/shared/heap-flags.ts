/**
 * V8 flags the shipped service, the container image and `npm start` start the agent with.
 * Under write load the HTTP thread's young generation grows to V8's default of two 16 MiB
 * semi-spaces (32 MiB resident, measured), and a scavenge only comes once they are full; with
 * 2 MiB ones it stays at 4 MiB. Request garbage dies young, so the scavenges that come more
 * often cost little. V8 reads the flag only when a thread's heap is made, so whoever starts
 * the process sets it for the main thread.
 *
 * Invariant: the flag sizes the main thread alone. Left set, it would also override every
 * worker's own `resourceLimits` (V8 applies the flag after a thread's constraints), so
 * `[decode] max_young_generation` would be ignored; `releaseThreadHeapFlags` clears it before
 * any worker is made, and every worker thread states its young generation itself.
 */
import v8 from 'node:v8'
import type { ResourceLimits } from 'node:worker_threads'

export const NODE_HEAP_FLAGS = ['--max-semi-space-size=2']

/**
 * The heap limits of a helper thread (the embedded workspace, its upload decoders, the
 * http_request helper): a 6 MiB young generation is two 2 MiB semi-spaces, the size the flag
 * gives the main thread. Their garbage dies young too.
 */
export const HELPER_THREAD_LIMITS: Readonly<ResourceLimits> = { maxYoungGenerationSizeMb: 6 }

/** Clears the semi-space flag for threads made from now on (the main thread keeps its own). */
export function releaseThreadHeapFlags(): void {
  v8.setFlagsFromString('--max-semi-space-size=0')
}
