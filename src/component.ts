/**
 * The lifecycle every long-lived part implements. `shutdown` is idempotent and safe to call
 * before `start`; the agent shuts components down in the reverse order of starting them.
 */
export interface Component {
  readonly name: string
  start(): Promise<void>
  shutdown(): Promise<void>
}
