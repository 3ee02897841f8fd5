// Writes what is made from docs/openapi.yaml and nothing else, so that one run is enough (a run
// right after it changes nothing):
//   src/sandbox/openapi-document.ts  the copy the sandbox serves (as written at GET /openapi.yaml,
//                                    and as JSON at GET /openapi.json);
//   src/api/openapi-types.ts         the document's types, by openapi-typescript, from which the
//                                    library derives what its data operations answer;
//   docs/service.md, docs/sandbox.md the table of the operations, between `<!-- operations -->` and
//                                    `<!-- /operations -->`, so that no count or list of them in
//                                    prose is kept by hand.
//
//   npm run openapi                            write them (after changing docs/openapi.yaml)
//   node scripts/openapi-document.js --check   exit 1, naming the command, when one is not up to date
//
// --yaml reads another document, and then only the files named by --out (the document module),
// --types and --docs (a Markdown file with the markers) are written or checked
// (test/sandbox/openapi-document.test.ts).
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

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const START = '<!-- operations -->\n';
const END = '<!-- /operations -->';

/** The table of the document's operations, in its order: what each does, its method and path, what it needs. */
function operationsTable(document) {
  const rows = Object.entries(document.paths).flatMap(([path, item]) => METHODS.filter((method) => item[method]).map((method) => {
    const operation = item[method];
    return `| ${operation.summary} | \`${method.toUpperCase()} ${path}\` | \`${operation.operationId}\` | ${needs(document, operation)} |\n`;
  }));
  return `| Operation | Method and path | operationId | Needs |\n|---|---|---|---|\n${rows.join('')}`;
}

/** What an operation needs, from its security and its body: a token and its scopes, the client's id and secret, its body's required fields. */
function needs(document, operation) {
  const bearer = operation.security?.find((scheme) => scheme.clientCredentials)?.clientCredentials;
  if (bearer) return `a token${bearer.length > 0 ? ` with ${bearer.map((scope) => `\`${scope}\``).join(', ')}` : ''}, an organization`;
  if (operation.security?.some((scheme) => scheme.clientBasic)) return 'the client id and secret';
  const ref = operation.requestBody?.content?.['application/json']?.schema?.$ref;
  const required = ref === undefined ? [] : document.components.schemas[ref.split('/').pop()].required ?? [];
  return required.length > 0 ? `in its body, ${required.map((field) => `\`${field}\``).join(' and ')}` : 'nothing';
}

class NoMarkers extends Error {}

/** `markdown` with the table between its markers written from `document`. */
function withOperations(markdown, document, file) {
  const start = markdown.indexOf(START);
  const end = markdown.indexOf(END, start);
  if (start < 0 || end < 0) throw new NoMarkers(`${file} has no ${START.trim()} ... ${END} to write the operations between`);
  return `${markdown.slice(0, start + START.length)}${operationsTable(document)}${markdown.slice(end)}`;
}

const { values } = parseArgs({ options: { check: { type: 'boolean', default: false }, yaml: { type: 'string' }, out: { type: 'string' }, types: { type: 'string' }, docs: { type: 'string', multiple: true } } });
const yamlPath = resolve(values.yaml ?? resolve(ROOT, 'docs/openapi.yaml'));
const outputs = values.yaml === undefined
  ? { out: resolve(ROOT, 'src/sandbox/openapi-document.ts'), types: resolve(ROOT, 'src/api/openapi-types.ts'), docs: ['docs/service.md', 'docs/sandbox.md'].map((file) => resolve(ROOT, file)) }
  : { out: values.out && resolve(values.out), types: values.types && resolve(values.types), docs: (values.docs ?? []).map((file) => resolve(file)) };
const yaml = readFileSync(yamlPath, 'utf8');
const wanted = [
  [outputs.out, () => documentModule(yaml)],
  [outputs.types, () => typesModule(yamlPath)],
  ...outputs.docs.map((file) => [file, () => withOperations(readFileSync(file, 'utf8'), YAML.parse(yaml), file)]),
];
for (const [path, make] of wanted) {
  if (path === undefined) continue;
  let text;
  try {
    text = await make();
  } catch (error) {
    if (!(error instanceof NoMarkers)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 1;
    continue;
  }
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
