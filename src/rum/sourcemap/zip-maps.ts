/**
 * The `.map` entries of one uploaded zip. Entries are kept as bytes and parsed into a
 * consumer on first use, so a zip of a hundred maps costs one parse per map actually hit.
 * Consumers hold WebAssembly memory: `close()` must run when the zip leaves the cache.
 */
import { SourceMapConsumer } from 'source-map'
import { LruMap } from '../../shared/lru.js'
import { safeEntryName } from './names.js'
import { collect, readZip, type ZipBudget } from '../zip/bounded.js'

/** A parsed map, and the sources as the map wrote them (the package normalises `./`). */
interface Parsed {
  consumer: SourceMapConsumer
  rawSource: Map<string, string>
}

export interface Position {
  source: string
  line: number
  column: number
}

/** A frame as resolved once: its rewritten text, and why it failed ('' when it did not). */
export interface ResolvedFrame {
  text: string
  reason: string
}

export class ZipMaps {
  private readonly parsed = new Map<string, Parsed | null>()
  /**
   * Frames already resolved with this zip (bounded): an app's errors repeat the same frames,
   * and a repeated frame then costs one map lookup instead of parsing its URL and asking the
   * source map (about 10 µs).
   */
  readonly frames = new LruMap<string, ResolvedFrame>(4_096)

  constructor(
    private readonly entries: Map<string, Uint8Array>,
    readonly bytes: number,
  ) {}

  /** Map entries held. */
  get count(): number {
    return this.entries.size
  }

  has(entry: string): boolean {
    return this.entries.has(entry)
  }

  /** The original position, or null when the map is unusable or has no mapping there. */
  async lookup(entry: string, line: number, column: number): Promise<Position | null> {
    const p = await this.consumer(entry)
    if (!p) return null
    const o = p.consumer.originalPositionFor({ line, column })
    if (o.source === null || o.line === null || o.column === null) return null
    return { source: p.rawSource.get(o.source) ?? o.source, line: o.line, column: o.column }
  }

  close(): void {
    for (const p of this.parsed.values()) p?.consumer.destroy()
    this.parsed.clear()
    this.frames.clear()
  }

  private async consumer(entry: string): Promise<Parsed | null> {
    if (this.parsed.has(entry)) return this.parsed.get(entry) ?? null
    const bytes = this.entries.get(entry)
    let p: Parsed | null = null
    if (bytes) {
      try {
        const raw = JSON.parse(Buffer.from(bytes).toString('utf8')) as { sources?: string[] }
        const consumer = await new SourceMapConsumer(raw as never)
        const rawSource = new Map<string, string>()
        const sources = raw.sources ?? []
        if (consumer.sources.length === sources.length)
          consumer.sources.forEach((s, i) => rawSource.set(s, sources[i]))
        p = { consumer, rawSource }
      } catch {
        // A bad map is skipped, as the reference does; its frames stay unchanged.
      }
    }
    this.parsed.set(entry, p)
    return p
  }
}

/**
 * Reads the `.map` entries with safe names of the zip at `file`, within `budget`: throws
 * `ZipRefused` over it, and an error for a zip that cannot be read.
 */
export async function readZipMaps(file: string, budget: ZipBudget): Promise<ZipMaps> {
  const entries = new Map<string, Uint8Array>()
  let bytes = 0
  const want = (name: string): boolean => name.endsWith('.map') && safeEntryName(name) !== null
  await readZip(file, budget, want, async (name, data) => {
    const b = await collect(data)
    entries.set(safeEntryName(name) as string, b)
    bytes += b.length
  })
  return new ZipMaps(entries, bytes)
}
