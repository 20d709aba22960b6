/**
 * The `ferry workspace` usage text, apart from the commands themselves so that the CLI's help
 * does not load DuckDB (which the agent image leaves out).
 */
export const WORKSPACE_USAGE = `  workspace                       run the workspace service alone
  workspace create NAME           create a workspace; prints its data token and an API key
  workspace list                  list workspaces and their data tokens
  workspace key create WS [NAME]  create an API key for workspace WS (shown once)
  workspace key list WS           list the API keys of workspace WS
  workspace key revoke KEY_ID     revoke an API key
  workspace retention set WS CATEGORY DURATION|forever
                                  keep CATEGORY's rows in workspace WS that long (e.g. 14d)
  workspace retention clear WS CATEGORY
                                  WS keeps CATEGORY as the global retention_* key says
  workspace retention list [WS]   list the retention workspaces have of their own
  workspace verify                read every table of the database; exit 1 if any fails
  workspace repair                recover a damaged database's readable rows to a fresh one
  workspace migrate --to clickhouse [--from DIR] [--batch ROWS]
                                  copy a stopped DuckDB workspace into [workspace.clickhouse]`
