/**
 * The SQL pieces that differ between a single node and a cluster: the table engine clause and
 * the ON CLUSTER clause. Pure functions of the cluster names, so the layout is the one place
 * that writes a CREATE TABLE.
 */
import type { ClusterNames } from './layout-types.js'
import { chIdent, chString } from './sql.js'

/**
 * The table engine: `kind` on a single node; on a cluster its Replicated form under the
 * ZooKeeper path `/clickhouse/tables/<path>` (names URI-encoded: a table may be called
 * anything, and `{`...`}` there would be read as a macro). Metadata paths have no `{shard}`,
 * so their replicas are named by shard and replica.
 */
export function tableEngine(
  cluster: ClusterNames | null,
  kind: string,
  path: string,
  version?: string,
): string {
  if (!cluster) return version ? `${kind}(${version})` : kind
  const zk = path
    .split('/')
    .map((p) => (p === '{shard}' ? p : encodeURIComponent(p)))
    .join('/')
  const replica = path.startsWith('{shard}/') ? '{replica}' : '{shard}-{replica}'
  const args = [chString(`/clickhouse/tables/${zk}`), chString(replica)]
  if (version) args.push(version)
  return `Replicated${kind}(${args.join(', ')})`
}

/** ` ON CLUSTER <which>` on a cluster; nothing on a single node. */
export function onCluster(cluster: ClusterNames | null, which: keyof ClusterNames): string {
  return cluster ? ` ON CLUSTER ${chIdent(cluster[which])}` : ''
}

/** An error of a DDL statement that found its table or column already there. */
export function alreadyExists(e: unknown): boolean {
  return /already exists/.test((e as Error).message)
}
