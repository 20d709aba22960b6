/**
 * The workspace service's metrics, prefixed `ferry_workspace_` and served on its own
 * `/metrics`; only events.ts counts into them (one call logs and counts).
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client'

export function createWorkspaceMetrics(registry: Registry) {
  const r = [registry]
  return {
    registry,
    requests: new Counter({
      name: 'ferry_workspace_http_requests_total',
      help: 'Requests answered by the workspace service, by route, method and status.',
      labelNames: ['route', 'method', 'status'] as const,
      registers: r,
    }),
    stored: new Counter({
      name: 'ferry_workspace_points_stored_total',
      help: 'Points committed to the database, by category.',
      labelNames: ['category'] as const,
      registers: r,
    }),
    duplicates: new Counter({
      name: 'ferry_workspace_duplicate_packages_total',
      help: 'Bodies acknowledged without storing because their X-Pkg-Id was already stored with the same content.',
      labelNames: ['workspace', 'category'] as const,
      registers: r,
    }),
    duplicateContent: new Counter({
      name: 'ferry_workspace_duplicate_content_total',
      help: 'Bodies acknowledged without storing because a body with the same content was stored under another id.',
      labelNames: ['workspace', 'category'] as const,
      registers: r,
    }),
    reusedIds: new Counter({
      name: 'ferry_workspace_package_id_reused_total',
      help: 'Bodies stored although their X-Pkg-Id was stored before with other content.',
      labelNames: ['workspace'] as const,
      registers: r,
    }),
    replays: new Counter({
      name: 'ferry_workspace_replay_segments_total',
      help: 'Session replay segments stored, by workspace.',
      labelNames: ['workspace'] as const,
      registers: r,
    }),
    rejected: new Counter({
      name: 'ferry_workspace_rejected_requests_total',
      help: 'Requests refused (nothing of them stored), by error code.',
      labelNames: ['code'] as const,
      registers: r,
    }),
    commitSeconds: new Histogram({
      name: 'ferry_workspace_write_seconds',
      help: 'Time from receiving a write to its commit.',
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: r,
    }),
    retentionDeleted: new Counter({
      name: 'ferry_workspace_retention_deleted_rows_total',
      help: 'Rows deleted by retention because they were older than their category keeps.',
      labelNames: ['workspace', 'category'] as const,
      registers: r,
    }),
    retentionFailures: new Counter({
      name: 'ferry_workspace_retention_failures_total',
      help: 'Retention sweeps that failed (retried at the next interval).',
      registers: r,
    }),
    damageErrors: new Counter({
      name: 'ferry_workspace_damage_errors_total',
      help: 'Queries and writes that failed because the database file is damaged.',
      registers: r,
    }),
    storageDown: new Gauge({
      name: 'ferry_workspace_storage_unavailable',
      help: 'Whether the storage service (ClickHouse) answers nothing (1) or answers (0).',
      registers: r,
    }),
    dedupeResidual: new Counter({
      name: 'ferry_workspace_dedupe_residual_total',
      help: 'Bodies a re-send may store twice: rows stored without their package record (unrecorded) or in part (partial).',
      labelNames: ['reason'] as const,
      registers: r,
    }),
    ddlUnfinished: new Counter({
      name: 'ferry_workspace_clickhouse_ddl_unfinished_total',
      help: 'ON CLUSTER statements (tables, columns) not run by every node within ddl_wait, taken as done.',
      registers: r,
    }),
    undocumentedFields: new Counter({
      name: 'ferry_workspace_undocumented_fields_total',
      help: 'Open API body fields the operation does not document (ignored), by operation.',
      labelNames: ['operation'] as const,
      registers: r,
    }),
    querySeconds: new Histogram({
      name: 'ferry_workspace_query_seconds',
      help: 'Time to answer one DQL query.',
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: r,
    }),
  }
}
