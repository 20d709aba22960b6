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

export function makeCerts(): TestCerts {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-ca-'))
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']
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
  openssl(dir, [
    'req',
    ...ec,
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
    '-subj',
    '/CN=127.0.0.1',
  ])
  fs.writeFileSync(path.join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1\n')
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '2',
    '-extfile',
    'san.ext',
  ])
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
  openssl(dir, [
    'req',
    ...ec,
    '-keyout',
    'client.key',
    '-out',
    'client.csr',
    '-subj',
    '/CN=ferry-agent',
  ])
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    'client.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'client.pem',
    '-days',
    '2',
  ])
  const read = (f: string) => fs.readFileSync(path.join(dir, f))
  return {
    dir,
    caFile: path.join(dir, 'ca.pem'),
    server: { key: read('server.key'), cert: read('server.pem') },
    client: { keyFile: path.join(dir, 'client.key'), certFile: path.join(dir, 'client.pem') },
    selfSigned: { key: read('self.key'), cert: read('self.pem') },
  }
}
