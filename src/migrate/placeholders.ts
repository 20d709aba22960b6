/**
 * Placeholders a reference agent's config may still hold, expanded from the environment:
 *
 * - the installer's template fields, `{{.Dataway.URLs}}`, each filled from the DK_* variable
 *   the reference's install script reads for that field (DK_DATAWAY, DK_HTTP_LISTEN, ...);
 * - `$NAME` and `${NAME}` references, which the reference expands in input files at start-up
 *   from its own environment (NAME is letters, digits and `_`, as there).
 *
 * The reference's host placeholders (`$datakit_ip`, `__datakit_hostname`, ...) are resolved by
 * that agent at each start and have no Ferry equivalent, and encrypted `ENC[...]` values need
 * the reference's key: both are reported, never written. A placeholder whose variable is unset
 * is reported too, so no output ever carries an unexpanded placeholder.
 */

type Env = NodeJS.ProcessEnv

interface TemplateField {
  /** The variables the installer reads for the field, for the report. */
  vars: string[]
  value(env: Env): string | undefined
}

const set = (env: Env, name: string) => (env[name] ? env[name] : undefined)

function fromVars(...vars: string[]): TemplateField {
  return { vars, value: (env) => vars.map((v) => set(env, v)).find((v) => v !== undefined) }
}

/** The installer joins DK_HTTP_LISTEN (an address) and DK_HTTP_PORT, each defaulting. */
const listen: TemplateField = {
  vars: ['DK_HTTP_LISTEN', 'DK_HTTP_PORT'],
  value: (env) =>
    set(env, 'DK_HTTP_LISTEN') || set(env, 'DK_HTTP_PORT')
      ? `${set(env, 'DK_HTTP_LISTEN') ?? 'localhost'}:${set(env, 'DK_HTTP_PORT') ?? '9529'}`
      : undefined,
}

/** Template field (the Go struct path of the reference's main config) -> its variables. */
const TEMPLATE_FIELDS: Record<string, TemplateField> = {
  'Dataway.URLs': fromVars('DK_DATAWAY'),
  'Dataway.HTTPProxy': fromVars('HTTPS_PROXY', 'HTTP_PROXY'),
  'Dataway.GlobalCustomerKeys': fromVars('DK_SINKER_GLOBAL_CUSTOMER_KEYS'),
  'Dataway.EnableSinker': fromVars('DK_DATAWAY_ENABLE_SINKER'),
  'Dataway.WAL.MaxCapacityGB': fromVars('DK_WAL_CAPACITY'),
  'HTTPAPI.Listen': listen,
  'HTTPAPI.ListenSocket': fromVars('DK_HTTP_SOCKET'),
  'HTTPAPI.PublicAPIs': fromVars('DK_HTTP_PUBLIC_APIS'),
  'HTTPAPI.RUMOriginIPHeader': fromVars('DK_RUM_ORIGIN_IP_HEADER'),
  GlobalHostTags: fromVars('DK_GLOBAL_HOST_TAGS', 'DK_GLOBAL_TAGS'),
  'Election.Enable': fromVars('DK_ENABLE_ELECTION'),
  'Election.Tags': fromVars('DK_GLOBAL_ELECTION_TAGS'),
  'Election.Namespace': fromVars('DK_NAMESPACE'),
  'Logging.Level': fromVars('DK_LOG_LEVEL'),
  'Logging.Log': fromVars('DK_LOG'),
  'Logging.GinLog': fromVars('DK_GIN_LOG'),
  'Environments.ENV_HOSTNAME': fromVars('DK_HOSTNAME'),
  DefaultEnabledInputs: fromVars('DK_DEF_INPUTS'),
  PProfListen: fromVars('DK_PPROF_LISTEN'),
  DatakitUser: fromVars('DK_USER_NAME'),
}

/** `$datakit_ip` and its `__datakit_ip` spelling, and the hostname and id forms. */
const HOST_PLACEHOLDER = /(?:\$|__)datakit_(?:hostname|ip|uuid|id)\b/

const FORMS = String.raw`\{\{\s*\.([A-Za-z0-9_.]+)\s*\}\}|\$\{(\w+)\}|\$(\w+)`
const PLACEHOLDER = new RegExp(FORMS, 'g')
const ONLY_ONE = new RegExp(`^(?:${FORMS})$`)

export type Expanded =
  /** `whole`: the string was one placeholder, so its value is the variable's text as is. */
  { value: string; whole: boolean } | { problem: string }

/** Expands one string value; a problem names the first placeholder that cannot be. */
export function expand(text: string, env: Env): Expanded {
  const host = HOST_PLACEHOLDER.exec(text)
  if (host)
    return {
      problem: `${host[0]} is filled in by the reference agent at each start; Ferry has no such placeholder`,
    }
  if (/ENC\[.*\]/.test(text))
    return { problem: 'an encrypted ENC[...] value; write the secret itself (or a $VARIABLE)' }
  let problem: string | undefined
  const value = text.replace(PLACEHOLDER, (all, field?: string, braced?: string, bare?: string) => {
    const found = resolve(field, braced ?? bare, env)
    if (typeof found === 'string') return found
    problem ??= `${all} not expanded: ${found.why}`
    return all
  })
  return problem === undefined ? { value, whole: ONLY_ONE.test(text) } : { problem }
}

function resolve(
  field: string | undefined,
  name: string | undefined,
  env: Env,
): string | { why: string } {
  if (field !== undefined) {
    const t = TEMPLATE_FIELDS[field]
    if (!t) return { why: `the installer has no template field ${field}` }
    return t.value(env) ?? { why: `${t.vars.join(' or ')} is not set` }
  }
  const v = env[name!]
  return v === undefined ? { why: `${name} is not set` } : v
}

/** A template placeholder written without quotes (`enable = {{.Election.Enable}}`) is not TOML. */
export function quoteBareTemplates(text: string): string {
  return text.replace(/(=\s*)(\{\{\s*\.[A-Za-z0-9_.]+\s*\}\})/g, '$1"$2"')
}
