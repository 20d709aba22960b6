/**
 * Whether DuckDB is installed. The agent image leaves it out (it is most of the image's size
 * and the agent never needs it when it uploads elsewhere), so the embedded workspace asks
 * before starting its thread, and a missing DuckDB becomes one clear start-up error.
 */
export function duckdbInstalled(): boolean {
  try {
    import.meta.resolve('@duckdb/node-api')
    return true
  } catch {
    return false
  }
}

export const NO_DUCKDB =
  'no upstream: set ENV_DATAWAY (or [dataway] urls) to the workspace to upload to. The embedded ' +
  'workspace cannot start here because DuckDB is not installed (the agent image leaves it out; ' +
  'the workspace image has it)'
