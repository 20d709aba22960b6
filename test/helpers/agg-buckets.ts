/** Aggregation buckets whose sink and report record what they emit and refuse. */
import assert from 'node:assert/strict'
import { AggBuckets, type AggRefusal } from '../../src/pipeline/agg/buckets.js'
import type { Category } from '../../src/shared/category.js'
import { Kind, type Point } from '../../src/shared/point.js'
import { kv } from './pipeline.js'

export interface Emitted {
  category: string
  name: string
  tags: Record<string, string>
  fields: Record<string, unknown>
}

export interface Recorder {
  emitted: Emitted[]
  refused: [AggRefusal, number][]
}

export function recordingBuckets(
  maxBuckets = 100,
  maxSeries = 1000,
  minIntervalMs = 1000,
): [AggBuckets, Recorder] {
  const rec: Recorder = { emitted: [], refused: [] }
  const sink = async (category: Category, points: Point[]) => {
    for (const p of points) {
      const all = kv(p)
      const tags = Object.fromEntries(p.tags.map((t) => [t.key, t.value]))
      const fields = Object.fromEntries(p.fields.map((f) => [f.key, all[f.key]]))
      assert.ok(p.fields.every((f) => f.kind === Kind.FLOAT))
      rec.emitted.push({ category, name: p.name, tags, fields })
    }
  }
  const report = {
    refused: (r: AggRefusal, _c: Category, _b: string, n: number) => rec.refused.push([r, n]),
    flushed: () => {},
    flushFailed: () => {},
  }
  return [new AggBuckets({ maxBuckets, maxSeries, minIntervalMs }, sink, report), rec]
}
