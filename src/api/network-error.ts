// What went wrong on the way, in words that name the fix: Node's and undici's error codes to a
// NetworkError (exit 7 in the CLI). The code stays Node's (ECONNREFUSED...), so that a program can
// tell the failures apart; hints name the library's options (baseUrl, dispatcher), and the CLI
// words its own from the code, for its flags and variables (src/cli/hints/library-errors.ts).
import { NetworkError } from './errors.js';

/** Node and undici error codes to a message that names the fix. */
export function toNetworkError(error: unknown, method: string, url: URL, operation: string): NetworkError {
  const code = findCode(error);
  const where = `${method} ${url.origin}${url.pathname}`;
  const init = (message: string, hint: string, proxyStatus?: number) =>
    new NetworkError(message, { code, method, url: url.href, operation, proxyStatus, cause: error, hint });
  switch (code) {
    case 'ECONNREFUSED':
      return init(`connection refused by ${url.host} (${where})`,
        'check baseUrl and that the service is running, and the proxy of the dispatcher if it has one');
    case 'ENOTFOUND':
      return init(`cannot resolve ${url.hostname} (${where})`, 'check baseUrl, the DNS, and the proxy of the dispatcher if it has one');
    case 'EAI_AGAIN':
      return init(`temporary DNS failure resolving ${url.hostname} (${where})`, 'check your network and DNS, then try again');
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'EPIPE':
    case 'ECONNABORTED':
      return init(`connection reset by ${url.host} (${where})`, 'the connection dropped; try again, or check proxies between you and the service');
    case 'UND_ERR_CONNECT_TIMEOUT':
      return init(`connecting to ${url.host} timed out (${where})`, 'check baseUrl, firewalls, and the proxy of the dispatcher if it has one');
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return init(`certificate signed by an unknown authority (${where})`,
        `trust the CA (PEM) that issued ${url.hostname}'s certificate: a dispatcher such as new Agent({ connect: { ca } }), or NODE_EXTRA_CA_CERTS when Node starts`);
    case 'CERT_HAS_EXPIRED':
      return init(`the server's certificate has expired (${where})`, 'the server must renew its certificate; check the system clock too');
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return init(`the server's certificate does not match ${url.hostname} (${where})`, 'check the host name in baseUrl');
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
          ? 'the proxy wants credentials: put them in the proxy URL of the dispatcher, e.g. http://user:password@proxy:3128'
          : 'check the proxy of the dispatcher, and the hosts it must not handle', Number(status));
      }
      return init(`request failed: ${message} (${where})`, 'check baseUrl and the network, then try again');
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
