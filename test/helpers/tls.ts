// A throw-away certificate authority and a server certificate it signed (for localhost, 127.0.0.1
// and proxied.test, a name only the test proxies resolve), made with the openssl command at test time: nothing committed can expire, and no
// private key lives in the repository. EC P-256 keys take milliseconds to make.
import { afterAll, beforeAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TestCertificates {
  dir: string;
  /** The CA certificate (PEM): what --ca-file / MKT_CA_FILE point at. */
  caFile: string;
  /** The server's private key and certificate (PEM), for https.createServer. */
  key: string;
  cert: string;
}

function openssl(args: string[], cwd: string): void {
  try {
    execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT'
      ? 'the openssl command is not on PATH; the TLS tests need it to make their certificates'
      : String((error as { stderr?: Buffer }).stderr ?? error);
    throw new Error(`openssl ${args[0]} failed: ${reason}`);
  }
}

export function createTestCertificates(): TestCertificates {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-tls-'));
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl(['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=mkt test CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'], dir);
  openssl(['req', '-new', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost'], dir);
  fs.writeFileSync(path.join(dir, 'server.ext'), [
    'subjectAltName=DNS:localhost,DNS:proxied.test,IP:127.0.0.1',
    'basicConstraints=CA:FALSE',
    'keyUsage=critical,digitalSignature',
    'extendedKeyUsage=serverAuth',
  ].join('\n'));
  openssl(['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-set_serial', '2', '-days', '2',
    '-sha256', '-extfile', 'server.ext', '-out', 'server.pem'], dir);
  return {
    dir,
    caFile: path.join(dir, 'ca.pem'),
    key: fs.readFileSync(path.join(dir, 'server.key'), 'utf8'),
    cert: fs.readFileSync(path.join(dir, 'server.pem'), 'utf8'),
  };
}

/** Certificates made once for a test file (beforeAll) and removed after it (afterAll). */
export function useTestCertificates(): () => TestCertificates {
  let certs: TestCertificates | undefined;
  beforeAll(() => {
    certs = createTestCertificates();
  });
  afterAll(() => {
    if (certs) fs.rmSync(certs.dir, { recursive: true, force: true });
  });
  return () => certs!;
}
