// Writes src/sandbox/openapi-document.ts, the copy of docs/openapi.yaml the sandbox serves (as written
// at GET /openapi.yaml, and as JSON at GET /openapi.json), from the YAML alone. One run is enough:
// the file is a function of the YAML and nothing else, so a run right after it changes nothing.
//
//   npm run openapi                      write it (after changing docs/openapi.yaml)
//   node scripts/openapi-document.js --check   exit 1, naming the command, when it is not up to date
//
// --yaml and --out read and write other files (test/sandbox/openapi-document.test.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import YAML from 'yaml';

const ROOT = resolve(import.meta.dirname, '..');

/** The module's text for the document `yaml`. */
function documentModule(yaml) {
  return `// Generated from docs/openapi.yaml by scripts/openapi-document.js; do not edit. After changing the
// YAML, \`npm run openapi\` writes this file again (test/sandbox/openapi-document.test.ts fails until then).
export const OPENAPI_YAML = ${JSON.stringify(yaml)};
export const OPENAPI_JSON = ${JSON.stringify(JSON.stringify(YAML.parse(yaml)))};
`;
}

const { values } = parseArgs({ options: { check: { type: 'boolean', default: false }, yaml: { type: 'string' }, out: { type: 'string' } } });
const yamlPath = resolve(values.yaml ?? resolve(ROOT, 'docs/openapi.yaml'));
const outPath = resolve(values.out ?? resolve(ROOT, 'src/sandbox/openapi-document.ts'));
const wanted = documentModule(readFileSync(yamlPath, 'utf8'));
let current;
try {
  current = readFileSync(outPath, 'utf8');
} catch (error) {
  if (error.code !== 'ENOENT') throw error;
}
if (values.check) {
  if (current !== wanted) {
    process.stderr.write(`${outPath} is not what ${yamlPath} makes: run \`npm run openapi\`\n`);
    process.exitCode = 1;
  }
} else if (current !== wanted) {
  writeFileSync(outPath, wanted);
  process.stdout.write(`wrote ${outPath}\n`);
}
