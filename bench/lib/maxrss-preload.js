// Fallback for peak memory where GNU time is missing (lib/processes.js): the measured process
// writes its own peak resident set size (KiB) when it exits.
import { writeFileSync } from 'node:fs';

process.on('exit', () => {
  writeFileSync(process.env.MKT_BENCH_MAXRSS_FILE, `${process.resourceUsage().maxRSS}\n`);
});
