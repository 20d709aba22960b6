/**
 * Tables of the `meta` schema. Points live in one schema per workspace (see catalog.ts);
 * everything else the service knows is here. Times are Unix milliseconds.
 */
export const META_DDL = [
  'CREATE SCHEMA IF NOT EXISTS meta',
  `CREATE TABLE IF NOT EXISTS meta.workspaces (
    id VARCHAR PRIMARY KEY, name VARCHAR UNIQUE NOT NULL, token VARCHAR UNIQUE NOT NULL,
    created_at BIGINT NOT NULL)`,
  // API keys are stored as SHA-256 hashes: the key itself is shown once, at creation.
  `CREATE TABLE IF NOT EXISTS meta.api_keys (
    id VARCHAR PRIMARY KEY, workspace_id VARCHAR NOT NULL, name VARCHAR NOT NULL,
    hash VARCHAR UNIQUE NOT NULL, prefix VARCHAR NOT NULL, created_at BIGINT NOT NULL,
    revoked_at BIGINT)`,
  `CREATE TABLE IF NOT EXISTS meta.dashboards (
    id VARCHAR PRIMARY KEY, workspace_id VARCHAR NOT NULL, name VARCHAR NOT NULL,
    "desc" VARCHAR NOT NULL, tags VARCHAR NOT NULL, extend VARCHAR NOT NULL,
    template VARCHAR NOT NULL, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL,
    creator VARCHAR NOT NULL, updator VARCHAR NOT NULL)`,
  // The documented integer `id` of a dashboard, and its documented settings as one JSON object
  // (dashboards.ts); both null in rows made before they existed, which read as the defaults.
  'CREATE SEQUENCE IF NOT EXISTS meta.dashboard_num',
  'ALTER TABLE meta.dashboards ADD COLUMN IF NOT EXISTS num BIGINT',
  'ALTER TABLE meta.dashboards ADD COLUMN IF NOT EXISTS attrs VARCHAR',
  // Open API notes (notes.ts): chart ids and `extend` as JSON text.
  'CREATE SEQUENCE IF NOT EXISTS meta.note_num',
  `CREATE TABLE IF NOT EXISTS meta.notes (
    id VARCHAR PRIMARY KEY, num BIGINT NOT NULL, workspace_id VARCHAR NOT NULL,
    name VARCHAR NOT NULL, charts VARCHAR NOT NULL, extend VARCHAR NOT NULL,
    created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, creator VARCHAR NOT NULL,
    updator VARCHAR NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS meta.labels (
    id VARCHAR PRIMARY KEY, workspace_id VARCHAR NOT NULL, object_class VARCHAR NOT NULL,
    object_name VARCHAR NOT NULL, key VARCHAR NOT NULL, value VARCHAR NOT NULL,
    labels VARCHAR NOT NULL, updated_at BIGINT NOT NULL)`,
  // The column catalog of the point tables: which columns are tags, and their types.
  `CREATE TABLE IF NOT EXISTS meta.columns (
    workspace_id VARCHAR NOT NULL, tbl VARCHAR NOT NULL, col VARCHAR NOT NULL,
    pos INTEGER NOT NULL, kind VARCHAR NOT NULL, type VARCHAR NOT NULL,
    PRIMARY KEY (workspace_id, tbl, col))`,
  // Physical names where they differ from the logical ones (see physical.ts); databases made
  // before they existed have none, and there the two are equal.
  'ALTER TABLE meta.columns ADD COLUMN IF NOT EXISTS phys VARCHAR',
  `CREATE TABLE IF NOT EXISTS meta.tables (
    workspace_id VARCHAR NOT NULL, tbl VARCHAR NOT NULL, phys VARCHAR NOT NULL,
    PRIMARY KEY (workspace_id, tbl))`,
  // The two tables behind a table in the series layout (series-layout.ts); null: a flat table.
  'ALTER TABLE meta.tables ADD COLUMN IF NOT EXISTS points_phys VARCHAR',
  'ALTER TABLE meta.tables ADD COLUMN IF NOT EXISTS series_phys VARCHAR',
  // RUM variables per workspace and application (`GET /v1/env_variable`); app_id '' is for all.
  `CREATE TABLE IF NOT EXISTS meta.env_variables (
    workspace_id VARCHAR NOT NULL, app_id VARCHAR NOT NULL, key VARCHAR NOT NULL,
    value VARCHAR NOT NULL, PRIMARY KEY (workspace_id, app_id, key))`,
  // Retention of one category in one workspace, over the global [workspace] retention_* keys
  // (retention-overrides.ts); keep_ms 0 keeps that category's rows forever.
  `CREATE TABLE IF NOT EXISTS meta.retention_overrides (
    workspace_id VARCHAR NOT NULL, category VARCHAR NOT NULL, keep_ms BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, category))`,
  // Session replay segments as uploaded (deflated JSON), bounded per workspace (replays.ts).
  `CREATE TABLE IF NOT EXISTS meta.replays (
    id VARCHAR PRIMARY KEY, workspace_id VARCHAR NOT NULL, app_id VARCHAR NOT NULL,
    session_id VARCHAR NOT NULL, view_id VARCHAR NOT NULL, start_ms BIGINT NOT NULL,
    end_ms BIGINT NOT NULL, received_at BIGINT NOT NULL, size BIGINT NOT NULL,
    fields VARCHAR NOT NULL, segment BLOB NOT NULL)`,
  // Bodies stored within the dedupe window (package id, category, content fingerprint), so
  // that a re-sent body is stored once; no key (packages.ts says why). Databases made before
  // the fingerprint gain its columns (NULL for the bodies stored then).
  `CREATE TABLE IF NOT EXISTS meta.packages (
    workspace_id VARCHAR NOT NULL, pkg_id VARCHAR NOT NULL, seen_at BIGINT NOT NULL)`,
  'ALTER TABLE meta.packages ADD COLUMN IF NOT EXISTS category VARCHAR',
  'ALTER TABLE meta.packages ADD COLUMN IF NOT EXISTS fingerprint VARCHAR',
]
