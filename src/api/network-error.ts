// What went wrong on the way, in words that name the fix: Node's and undici's error codes to a
// NetworkError (exit 7 in the CLI).
import { NetworkError } from './errors.js';

/** Node and undici error codes to a message that names the fix. */
export function toNetworkError(error: unknown, method: string, url: URL): NetworkError {
  const code = findCode(error);
  const where = `${method} ${url.origin}${url.pathname}`;
  const init = (message: string, hint: string) => new NetworkError(message, { code, method, url: url.href, cause: error, hint });
  switch (code) {
    case 'ECONNREFUSED':
      return init(`connection refused by ${url.host} (${where})`,
        'check the base URL and that the service (or `mkt sandbox`) is running, and HTTPS_PROXY/HTTP_PROXY if you use a proxy');
    case 'ENOTFOUND':
      return init(`cannot resolve ${url.hostname} (${where})`, 'check the base URL, your DNS, and HTTPS_PROXY/NO_PROXY');
    case 'EAI_AGAIN':
      return init(`temporary DNS failure resolving ${url.hostname} (${where})`, 'check your network and DNS, then try again');
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'EPIPE':
    case 'ECONNABORTED':
      return init(`connection reset by ${url.host} (${where})`, 'the connection dropped; try again, or check proxies between you and the service');
    case 'UND_ERR_CONNECT_TIMEOUT':
      return init(`connecting to ${url.host} timed out (${where})`, 'check the base URL, firewalls, and HTTPS_PROXY/NO_PROXY');
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return init(`certificate signed by an unknown authority: set MKT_CA_FILE to your CA bundle (${where})`,
        `or pass --ca-file FILE, or set NODE_EXTRA_CA_CERTS; the file must hold the CA (PEM) that issued ${url.hostname}'s certificate`);
    case 'CERT_HAS_EXPIRED':
      return init(`the server's certificate has expired (${where})`, 'the server must renew its certificate; check the system clock too');
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return init(`the server's certificate does not match ${url.hostname} (${where})`, 'check the host name in the base URL');
    case 'EPROTO':
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
      return init(`TLS handshake with ${url.host} failed (${where})`, 'check the scheme: http:// or https://');
    default: {
      const message = error instanceof Error ? error.message : String(error);
      // undici's ProxyAgent reports a proxy's refusal only in words.
      const proxyStatus = /Proxy response \((\d{3})\)|Proxy Authentication Required \((407)\)/.exec(message);
      if (proxyStatus) {
        const status = proxyStatus[1] ?? proxyStatus[2];
        return init(`the proxy refused to connect to ${url.host} (status ${status}; ${where})`, status === '407'
          ? 'the proxy wants credentials: put them in the proxy URL, e.g. HTTPS_PROXY=http://user:password@proxy:3128'
          : 'check HTTPS_PROXY/HTTP_PROXY, and NO_PROXY for hosts the proxy must not handle');
      }
      return init(`request failed: ${message} (${where})`, 'check the base URL and your network, then try again');
    }
  }
}

function findCode(error: unknown): string {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (code && code !== 'UND_ERR') return code;
  }
  return 'NETWORK';
}
