// Writes what is made from docs/openapi.yaml and nothing else, so that one run is enough (a run
// right after it changes nothing):
//   src/sandbox/openapi-document.ts  the copy the sandbox serves (as written at GET /openapi.yaml,
//                                    and as JSON at GET /openapi.json);
//   src/api/openapi-types.ts         the document's types, by openapi-typescript, from which the
//                                    library derives what its data operations answer.
//
//   npm run openapi                            write them (after changing docs/openapi.yaml)
//   node scripts/openapi-document.js --check   exit 1, naming the command, when one is not up to date
//
// --yaml reads another document, and then only the files named by --out (the document module) and
// --types are written or checked (test/sandbox/openapi-document.test.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import YAML from 'yaml';

const ROOT = resolve(import.meta.dirname, '..');

/** The document module's text for the document `yaml`. */
function documentModule(yaml) {
  return `// Generated from docs/openapi.yaml by scripts/openapi-document.js; do not edit. After changing the
// YAML, \`npm run openapi\` writes this file again (test/sandbox/openapi-document.test.ts fails until then).
export const OPENAPI_YAML = ${JSON.stringify(yaml)};
export const OPENAPI_JSON = ${JSON.stringify(JSON.stringify(YAML.parse(yaml)))};
`;
}

/** The types module's text for the document at `yamlPath`. */
async function typesModule(yamlPath) {
  const types = astToString(await openapiTS(pathToFileURL(yamlPath)));
  return `// Generated from docs/openapi.yaml by scripts/openapi-document.js with openapi-typescript; do not
// edit. After changing the YAML, \`npm run openapi\` writes this file again (test/sandbox/openapi-document.test.ts
// fails until then). src/api/data-operation.ts reads the data operations' answers from it.
${types}`;
}

const { values } = parseArgs({ options: { check: { type: 'boolean', default: false }, yaml: { type: 'string' }, out: { type: 'string' }, types: { type: 'string' } } });
const yamlPath = resolve(values.yaml ?? resolve(ROOT, 'docs/openapi.yaml'));
const outputs = values.yaml === undefined
  ? { out: resolve(ROOT, 'src/sandbox/openapi-document.ts'), types: resolve(ROOT, 'src/api/openapi-types.ts') }
  : { out: values.out && resolve(values.out), types: values.types && resolve(values.types) };
const yaml = readFileSync(yamlPath, 'utf8');
const wanted = [
  [outputs.out, () => documentModule(yaml)],
  [outputs.types, () => typesModule(yamlPath)],
];
for (const [path, make] of wanted) {
  if (path === undefined) continue;
  const text = await make();
  let current;
  try {
    current = readFileSync(path, 'utf8');
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  if (current === text) continue;
  if (values.check) {
    process.stderr.write(`${path} is not what ${yamlPath} makes: run \`npm run openapi\`\n`);
    process.exitCode = 1;
  } else {
    writeFileSync(path, text);
    process.stdout.write(`wrote ${path}\n`);
  }
}
