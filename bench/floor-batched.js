// The floor of target 3 (docs/benchmarks.md): what `mkt quotes --symbols-file FILE --json` has to
// do at the least. The symbols in batches of 100, 4 requests in flight on kept-alive connections
// (mkt's defaults, src/shared/limits.ts), each body parsed and the `data` arrays concatenated, in
// request order, into one {"data": [...]} on stdout. Same environment as mkt: MKT_BASE_URL,
// MKT_TOKEN, MKT_ORG.
//   node bench/floor-batched.js SYMBOLS_FILE [--batch-size 100] [--concurrency 4]
import { Agent, request } from 'node:http';
import { readFileSync } from 'node:fs';

const { MKT_BASE_URL: base, MKT_TOKEN: token, MKT_ORG: org } = process.env;
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : Number(args.splice(at, 2)[1]);
};
const batchSize = option('--batch-size', 100);
const concurrency = option('--concurrency', 4);
const file = args[0];

function get(agent, symbols) {
  const url = new URL('/v1/market/quotes', base);
  url.search = `symbols=${symbols.map(encodeURIComponent).join(',')}`;
  return new Promise((resolve, reject) => {
    const req = request(url, {
      agent,
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
        const text = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 200) reject(new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`));
        else resolve(JSON.parse(text).data);
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function main() {
  const symbols = readFileSync(file, 'utf8').split(/[\s,]+/).filter((s) => s !== '');
  const batches = [];
  for (let i = 0; i < symbols.length; i += batchSize) batches.push(symbols.slice(i, i + batchSize));
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const results = new Array(batches.length);
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const index = next++;
      results[index] = await get(agent, batches[index]);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, batches.length) }, worker));
  } finally {
    agent.destroy();
  }
  process.stdout.write(JSON.stringify({ data: results.flat() }));
}

if (!base || !token || !org || !file) {
  console.error('usage: MKT_BASE_URL=... MKT_TOKEN=... MKT_ORG=... node bench/floor-batched.js SYMBOLS_FILE');
  process.exitCode = 2;
} else {
  main().catch((error) => {
    console.error(`floor-batched: ${error.message}`);
    process.exitCode = 1;
  });
}
