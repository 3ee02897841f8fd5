// The ceiling of target 4 (docs/benchmarks.md): a bare node:http server that answers every request
// with the same ten quotes (ten-quotes.json, a real sandbox response), no routing, no auth, no work.
// Like `mkt sandbox`, the first line on stdout is the base URL.
//   node bench/fixed-server.js [--port 0] [--host 127.0.0.1]
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : args[at + 1];
};
const host = option('--host', '127.0.0.1');
const port = Number(option('--port', '0'));
const body = readFileSync(new URL('./ten-quotes.json', import.meta.url));
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) };

const server = createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.listen(port, host, () => {
  const address = server.address();
  process.stdout.write(`http://${address.address}:${address.port}\n`);
});
const stop = () => server.close();
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
