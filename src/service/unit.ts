/**
 * The systemd unit Ferry installs: a dedicated user, config in /etc/ferry (writable by that
 * user, since global tag changes are persisted there), data in /var/lib/ferry, restart on
 * failure, a high open-file limit, SIGHUP for reload, and a read-only view of the rest of the
 * system.
 */
import { NODE_HEAP_FLAGS } from '../shared/heap-flags.js'
import { MALLOC_TUNABLES } from '../shared/malloc.js'

export interface UnitOptions {
  node: string
  main: string
  user: string
  configDir: string
  dataDir: string
}

export const SERVICE_NAME = 'ferry'

export function unitFile(o: UnitOptions): string {
  return `# Installed by \`ferry service install\`; \`ferry service uninstall\` removes it.
[Unit]
Description=Ferry telemetry agent
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
User=${o.user}
Group=${o.user}
Environment=NODE_ENV=production
# Large freed blocks go back to the system (see src/shared/malloc.ts).
Environment=GLIBC_TUNABLES=${MALLOC_TUNABLES}
# The HTTP thread's young generation stays small (see src/shared/heap-flags.ts).
ExecStart=${o.node} ${NODE_HEAP_FLAGS.join(' ')} ${o.main} run --config ${o.configDir}/ferry.conf
ExecReload=/bin/kill -HUP $MAINPID
Restart=on-failure
RestartSec=5s
# Stop lets in-flight uploads finish (see [dataway] shutdown_timeout); the buffer keeps the rest.
TimeoutStopSec=30s
LimitNOFILE=65536
WorkingDirectory=${o.dataDir}
ReadWritePaths=${o.configDir} ${o.dataDir}
ProtectSystem=strict
ProtectHome=read-only
PrivateTmp=true
NoNewPrivileges=true

[Install]
WantedBy=multi-user.target
`
}
