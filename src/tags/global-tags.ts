/**
 * Global host and election tags (spec 4.8, 4.9): added at ingest to every point lacking the
 * key. `host` is always the agent's host name. While election is disabled, the election tags
 * are the host tags (reference behaviour).
 */
export interface TagOptions {
  ignoreHost: boolean
  election: boolean
}

export class GlobalTags {
  private host: Record<string, string>
  private electionTags: Record<string, string>

  constructor(
    hostname: string,
    hostTags: Record<string, string>,
    readonly electionEnabled: boolean,
    electionTags: Record<string, string>,
  ) {
    this.host = { ...hostTags, host: hostname }
    this.electionTags = { ...electionTags }
  }

  hostTags(): Record<string, string> {
    return { ...this.host }
  }

  election(): Record<string, string> {
    return this.electionEnabled ? { ...this.electionTags } : this.hostTags()
  }

  /** The tags to add to a write, per its query parameters (election beats ignore). */
  forWrite(o: TagOptions): [string, string][] {
    if (o.election) return Object.entries(this.election())
    if (o.ignoreHost) return []
    return Object.entries(this.host)
  }
}
