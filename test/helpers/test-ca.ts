/**
 * Certificates made for one test run with openssl: a private CA and a server certificate for
 * 127.0.0.1 signed by it, and a self-signed certificate no CA vouches for. Files are written to
 * a temporary directory the caller removes.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export interface TestCerts {
  dir: string
  caFile: string
  /** Signed by the CA, for IP 127.0.0.1. */
  server: { key: Buffer; cert: Buffer }
  /** Signed by the CA, a client certificate (files, as the agent reads them). */
  client: { keyFile: string; certFile: string }
  /** Self-signed, for IP 127.0.0.1. */
  selfSigned: { key: Buffer; cert: Buffer }
}

const openssl = (cwd: string, args: string[]) =>
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] })

const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']

/** A key and a certificate `<name>.key`/`<name>.pem` for `subject`, signed by the test CA. */
function signed(dir: string, name: string, subject: string, extra: string[] = []): void {
  openssl(dir, ['req', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject])
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    `${name}.pem`,
    '-days',
    '2',
    ...extra,
  ])
}

export function makeCerts(): TestCerts {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-ca-'))
  openssl(dir, [
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=Ferry Test CA',
  ])
  fs.writeFileSync(path.join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1\n')
  signed(dir, 'server', '/CN=127.0.0.1', ['-extfile', 'san.ext'])
  openssl(dir, [
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'self.key',
    '-out',
    'self.pem',
    '-days',
    '2',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
  ])
  signed(dir, 'client', '/CN=ferry-agent')
  const read = (f: string) => fs.readFileSync(path.join(dir, f))
  return {
    dir,
    caFile: path.join(dir, 'ca.pem'),
    server: { key: read('server.key'), cert: read('server.pem') },
    client: { keyFile: path.join(dir, 'client.key'), certFile: path.join(dir, 'client.pem') },
    selfSigned: { key: read('self.key'), cert: read('self.pem') },
  }
}
