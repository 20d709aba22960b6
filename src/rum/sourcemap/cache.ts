/**
 * Loaded source map zips, least recently used first out, bounded both in zips and in bytes
 * of map text. A zip is looked at again (one stat) at most every `recheckMs`: a changed mtime
 * or size reloads it, a removed file drops it.
 */
import { promises as fs } from 'node:fs'
import { readZipMaps, type ZipMaps } from './zip-maps.js'

export interface CacheLimits {
  maxZips: number
  maxBytes: number
  recheckMs: number
}

interface Slot {
  maps: ZipMaps
  mtimeMs: number
  size: number
  checkedAt: number
}

export type Loaded = { maps: ZipMaps } | { missing: true } | { error: string }

export class SourceMapCache {
  private readonly slots = new Map<string, Slot>()
  private readonly loading = new Map<string, Promise<Loaded>>()
  private bytes = 0

  constructor(private readonly limits: CacheLimits) {}

  get size(): number {
    return this.slots.size
  }

  get totalBytes(): number {
    return this.bytes
  }

  async get(file: string, now = Date.now()): Promise<Loaded> {
    const slot = this.slots.get(file)
    if (slot && now - slot.checkedAt < this.limits.recheckMs) {
      this.touch(file, slot)
      return { maps: slot.maps }
    }
    const pending = this.loading.get(file)
    if (pending) return pending
    const p = this.refresh(file, slot, now).finally(() => this.loading.delete(file))
    this.loading.set(file, p)
    return p
  }

  drop(file: string): void {
    const slot = this.slots.get(file)
    if (!slot) return
    this.slots.delete(file)
    this.bytes -= slot.maps.bytes
    slot.maps.close()
  }

  clear(): void {
    for (const file of [...this.slots.keys()]) this.drop(file)
  }

  private async refresh(file: string, slot: Slot | undefined, now: number): Promise<Loaded> {
    const st = await fs.stat(file).catch(() => null)
    if (!st?.isFile()) {
      this.drop(file)
      return { missing: true }
    }
    if (slot && slot.mtimeMs === st.mtimeMs && slot.size === st.size) {
      slot.checkedAt = now
      this.touch(file, slot)
      return { maps: slot.maps }
    }
    this.drop(file)
    try {
      const maps = readZipMaps(await fs.readFile(file), this.limits.maxBytes)
      this.insert(file, { maps, mtimeMs: st.mtimeMs, size: st.size, checkedAt: now })
      return { maps }
    } catch (e) {
      return { error: `read sourcemap zip failed: ${(e as Error).message}` }
    }
  }

  private touch(file: string, slot: Slot): void {
    this.slots.delete(file)
    this.slots.set(file, slot)
  }

  private insert(file: string, slot: Slot): void {
    this.slots.set(file, slot)
    this.bytes += slot.maps.bytes
    // The newest zip stays even alone over the byte bound: it is in use right now.
    while (
      this.slots.size > 1 &&
      (this.slots.size > this.limits.maxZips || this.bytes > this.limits.maxBytes)
    ) {
      this.drop(this.slots.keys().next().value as string)
    }
  }
}
