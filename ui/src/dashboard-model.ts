/**
 * A dashboard as the studio reads and writes it through the Open API: its charts and variables
 * live in `extend` (dashboards.ts says why).
 */
import type { ChartOptions } from './chart-style.js'

/** A chart as the studio saves it; the display options are chart-style.ts's (absent: auto). */
export interface ChartSpec extends ChartOptions {
  title: string
  dql: string
  type: 'line' | 'bar' | 'table'
}

export interface Variable {
  name: string
  dql: string
}

export interface Dashboard {
  uuid: string
  name: string
  desc: string
  extend: { charts?: ChartSpec[]; variables?: Variable[] }
  templateInfo: Record<string, unknown>
  updateAt: number
}
