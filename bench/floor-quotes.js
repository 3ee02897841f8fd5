// The floor of target 1 (docs/benchmarks.md): the least a program can do to answer
// `mkt quotes EURUSD --json` — one GET /v1/market/quotes with node:http and the same headers as mkt,
// the body written to stdout. Same environment as mkt: MKT_BASE_URL, MKT_TOKEN, MKT_ORG.
//   node bench/floor-quotes.js EURUSD [MORE...]
import { request } from 'node:http';

const { MKT_BASE_URL: base, MKT_TOKEN: token, MKT_ORG: org } = process.env;
const symbols = process.argv.slice(2).join(',');
if (!base || !token || !org || symbols === '') {
  console.error('usage: MKT_BASE_URL=... MKT_TOKEN=... MKT_ORG=... node bench/floor-quotes.js SYMBOL...');
  process.exitCode = 2;
} else {
  const url = new URL('/v1/market/quotes', base);
  url.search = `symbols=${symbols.split(',').map(encodeURIComponent).join(',')}`;
  const req = request(url, {
    headers: {
      accept: 'application/json',
      authorization: `Bearer ${token}`,
      'x-organization-id': org,
      'user-agent': `mkt-floor node/${process.versions.node}`,
    },
  }, (res) => {
    const chunks = [];
    res.on('data', (chunk) => chunks.push(chunk));
    res.on('end', () => {
      process.stdout.write(Buffer.concat(chunks));
      if (res.statusCode !== 200) {
        console.error(`floor-quotes: HTTP ${res.statusCode}`);
        process.exitCode = 1;
      }
    });
  });
  req.on('error', (error) => {
    console.error(`floor-quotes: ${error.message}`);
    process.exitCode = 1;
  });
  req.end();
}
