// The CA certificates a run trusts: Node's bundled roots, NODE_EXTRA_CA_CERTS, and the file given
// with --ca-file or MKT_CA_FILE (a PEM bundle, read with a cap).
import type { Deps } from '../deps.js';
import { UsageError } from '../errors/errors.js';
import { readFileLimited } from '../../shared/read-limited.js';
import { MAX_CA_FILE_BYTES } from '../../shared/limits.js';

/**
 * Node's bundled roots, NODE_EXTRA_CA_CERTS, and the file: passing `ca` replaces the defaults. Read
 * as streams with a byte cap (a device such as /dev/zero has no size to check), interruptible.
 */
export async function readCertificates(deps: Deps, caFile: string, source: string): Promise<string[]> {
  const { rootCertificates } = await import('node:tls');
  const read = async (file: string, from: string) => {
    const text = await readFileLimited(file, `the CA file ${file} (from ${from})`, MAX_CA_FILE_BYTES, deps.signal);
    if (!text.includes('-----BEGIN CERTIFICATE-----')) throw new UsageError(`${file} (from ${from}) holds no PEM certificate`, 'point it at a PEM file of CA certificates (-----BEGIN CERTIFICATE-----)');
    return text;
  };
  const extraFile = deps.env.NODE_EXTRA_CA_CERTS;
  const extra = extraFile ? [await read(extraFile, 'NODE_EXTRA_CA_CERTS')] : [];
  return [...rootCertificates, ...extra, await read(caFile, source)];
}
