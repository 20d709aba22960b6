/**
 * What an input is. A polled input (cpu, mem, prom, ...) answers `collect` on a schedule; a
 * streaming input (log tailing) runs by itself from `start` and hands its points to `emit`,
 * whose promise resolves only once they are in the disk buffer (so it can save positions).
 */
import type { Category } from '../shared/category.js'
import type { Point } from '../shared/point.js'
import type { SectionOf, SectionSpec } from '../config/spec.js'
import type { InputEvents } from '../telemetry/input-events.js'

export interface CollectContext {
  /** Aborted when the run passes its time limit. */
  signal: AbortSignal
  /** Collection time, ns since the epoch: every point of a run carries it. */
  now: bigint
}

export interface EmitOptions {
  category?: Category
  /** Pipeline script selector (`source` of a write); default: the points' measurement. */
  source?: string | null
}

/** Resolves once the points are in the disk buffer; rejects if they are not. */
export type Emit = (points: Point[], o?: EmitOptions) => Promise<void>

export interface PolledInput {
  readonly kind: 'polled'
  readonly category: Category
  /** Milliseconds between runs. */
  readonly interval: number
  /** Per-run time limit, ms; default: the interval (a run never overlaps the next). */
  readonly timeout?: number
  collect(ctx: CollectContext): Promise<Point[]>
}

export interface StreamingInput {
  readonly kind: 'streaming'
  start(emit: Emit): Promise<void>
  shutdown(): Promise<void>
}

export type Input = PolledInput | StreamingInput

/** What every input may use from the agent. */
export interface InputEnv {
  host: string
  version: string
  /** The agent's data folder (position stores live here). */
  dataDir: string
  events: InputEvents
  /** The inputs' recent errors, newest first, for the `HOST` object's `message`. */
  collectorErrors(): { input: string; message: string; at: number }[]
}

/** One input type: its name, config keys and constructor (from validated keys). */
export interface InputKind<S extends SectionSpec> {
  name: string
  schema: S
  create(conf: SectionOf<S>, env: InputEnv): Input
}

/** An input type with its config type erased, for the table of all inputs. */
export interface AnyInputKind {
  name: string
  schema: SectionSpec
  create(conf: Record<string, unknown>, env: InputEnv): Input
}

export function defineInput<S extends SectionSpec>(k: InputKind<S>): AnyInputKind {
  // Config values reach `create` only after validation against `schema` (conf/load.ts).
  return k as unknown as AnyInputKind
}
