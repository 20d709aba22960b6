/**
 * Global host and election tags (spec 4.8, 4.9): added at ingest to every point lacking the
 * key. `host` is always the agent's host name and cannot be set or deleted through the API.
 * While election is disabled, the election tags are the host tags (reference behaviour).
 *
 * Invariant: the maps are replaced, never mutated, so a write that took a snapshot keeps it.
 */
export interface TagOptions {
  ignoreHost: boolean
  election: boolean
}

export type TagTable = 'host' | 'election'

export interface TagsView {
  'dataway-tags': Record<string, string>
  'election-tags': Record<string, string>
  'host-tags': Record<string, string>
}

function without(tags: Record<string, string>, keys: readonly string[]): Record<string, string> {
  const out = { ...tags }
  for (const k of keys) delete out[k]
  return out
}

export class GlobalTags {
  private host: Record<string, string> = {}
  private electionTags: Record<string, string> = {}
  private hostPairs: [string, string][] = []

  constructor(
    private readonly hostname: string,
    hostTags: Record<string, string>,
    readonly electionEnabled: boolean,
    electionTags: Record<string, string>,
  ) {
    this.replace(hostTags, electionTags)
  }

  /** Sets both tables at once (start and config reload). */
  replace(hostTags: Record<string, string>, electionTags: Record<string, string>): void {
    this.setHost({ ...hostTags })
    this.electionTags = without(electionTags, ['host'])
  }

  private setHost(tags: Record<string, string>): void {
    this.host = { ...without(tags, ['host']), host: this.hostname }
    this.hostPairs = Object.entries(this.host)
  }

  hostTags(): Record<string, string> {
    return { ...this.host }
  }

  election(): Record<string, string> {
    return this.electionEnabled ? { ...this.electionTags } : this.hostTags()
  }

  /** Merges `tags` into a table (`host` ignored). */
  update(table: TagTable, tags: Record<string, string>): void {
    const clean = without(tags, ['host'])
    if (table === 'host') this.setHost({ ...this.host, ...clean })
    else this.electionTags = { ...this.electionTags, ...clean }
  }

  /** Removes keys from a table (`host` ignored). */
  delete(table: TagTable, keys: readonly string[]): void {
    const drop = keys.filter((k) => k !== 'host')
    if (table === 'host') this.setHost(without(this.host, drop))
    else this.electionTags = without(this.electionTags, drop)
  }

  /** The reply of a change (spec 4.8); Ferry's uploads carry the host tags as dataway tags. */
  view(): TagsView {
    return {
      'dataway-tags': this.hostTags(),
      'election-tags': this.election(),
      'host-tags': this.hostTags(),
    }
  }

  /** The tags to add to a write, per its query parameters (election beats ignore). */
  forWrite(o: TagOptions): [string, string][] {
    if (o.election) return Object.entries(this.election())
    if (o.ignoreHost) return []
    return this.hostPairs
  }
}
