/** What a dial test produces and the shapes its checks share (reference: cliutils dialtesting). */

/** One hop of a traceroute: probe statistics (µs) and the addresses that answered. */
export interface Hop {
  total: number
  failed: number
  loss: number
  avg_cost: number
  min_cost: number
  max_cost: number
  std_cost: number
  items: { ip: string; response_time: number }[]
}

/** A task's measurement: tags and fields as the reference reports them, before merging. */
export interface DialResult {
  tags: Record<string, string>
  fields: Record<string, unknown>
  traceroute?: Hop[]
  /** Post-script `vars` (HTTP and multi only). */
  postVars?: Record<string, unknown>
}

/** The answer of spec 4.12. */
export interface DebugContent {
  cost: string
  status: 'success' | 'fail'
  error_msg: string
  traceroute: Hop[]
  fields: Record<string, unknown>
}

/** A value check: each key set is one condition (reference SuccessOption). */
export interface StringOpt {
  is?: string
  is_not?: string
  match_regex?: string
  not_match_regex?: string
  contains?: string
  not_contains?: string
}

/** A number check (reference ValueSuccessOption). */
export interface NumberOpt {
  op?: string
  target?: number
}

/** Reasons a check failed, and whether any passed (for the `or` rule). */
export interface Verdict {
  reasons: string[]
  passed: boolean
}

/** A config variable as the request carries it. */
export interface ConfigVar {
  id?: string
  type?: string
  name: string
  value?: string
  secure?: boolean
}
