// Hosts whose traffic cannot leave the machine: plain http to them exposes nothing.

/** 127.0.0.0/8, ::1 and `localhost`; a `*.localhost` name goes to the resolver like any other, so not it. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}
