/** Builds the shared Point model for collected data with exact field kinds (int vs float). */
import { Kind, newPoint, type Point } from '../shared/point.js'

export class PointBuilder {
  readonly point: Point

  constructor(name: string, time: bigint) {
    this.point = newPoint(name)
    this.point.time = time
  }

  tag(key: string, value: string): this {
    if (value !== '') this.point.tags.push({ key, value })
    return this
  }

  /** Integers beyond 2^53 would lose digits as numbers: they travel as bigints. */
  int(key: string, value: number | bigint): this {
    const v = typeof value === 'number' ? Math.trunc(value) : value
    this.point.fields.push({ key, kind: Kind.INT, value: v })
    return this
  }

  float(key: string, value: number): this {
    if (Number.isFinite(value)) this.point.fields.push({ key, kind: Kind.FLOAT, value })
    return this
  }

  str(key: string, value: string): this {
    this.point.fields.push({ key, kind: Kind.STRING, value })
    return this
  }

  bool(key: string, value: boolean): this {
    this.point.fields.push({ key, kind: Kind.BOOL, value })
    return this
  }
}
