// The import rule of eslint.config.js: layers point one way (shared <- api <- render <- cli,
// config <- cli, the sandbox alone). Linted as if the text were a file in each layer.
import fs from 'node:fs';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();
const problems = async (file: string, text: string) => {
  const [result] = await eslint.lintText(text, { filePath: file });
  return result!.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
};

describe('layers point one way', () => {
  it.each([
    ['src/api/wrong.ts', "import { main } from '../cli/main.js';\nexport { main };\n"],
    ['src/api/wrong.ts', "import { renderTable } from '../render/table.js';\nexport { renderTable };\n"],
    ['src/api/wrong.ts', "import { ConfigStore } from '../config/store.js';\nexport { ConfigStore };\n"],
    ['src/shared/wrong.ts', "import { ApiError } from '../api/errors.js';\nexport { ApiError };\n"],
    ['src/render/wrong.ts', "import type { Deps } from '../cli/deps.js';\nexport type { Deps };\n"],
    ['src/config/wrong.ts', "import { MktError } from '../api/errors.js';\nexport { MktError };\n"],
    ['src/sandbox/wrong.ts', "import { getQuotes } from '../api/quotes.js';\nexport { getQuotes };\n"],
    ['src/cli/commands/wrong.ts', "import { getQuotes } from '../../api/quotes.js';\nexport { getQuotes };\n"],
    ['src/cli/wrong.ts', "import type { TransportOptions } from '../api/transport.js';\nexport type { TransportOptions };\n"],
    ['src/cli/network/wrong.ts', "import type { TransportOptions } from '../../api/transport.js';\nexport type { TransportOptions };\n"],
  ])('%s: %s fails lint', async (file, text) => {
    expect(await problems(file, text)).toEqual([expect.stringMatching(/may not import from/)]);
  });

  it.each([
    ['src/api/right.ts', "import { stripControl } from '../shared/text.js';\nexport { stripControl };\n"],
    ['src/render/right.ts', "import type { Quote } from '../api/types.js';\nexport type { Quote };\n"],
    ['src/sandbox/right.ts', "import { ORGANIZATION_PATTERN } from '../shared/patterns.js';\nexport { ORGANIZATION_PATTERN };\n"],
    ['src/cli/commands/right.ts', "import { ConfigStore } from '../../config/store.js';\nexport { ConfigStore };\n"],
    ['src/cli/commands/right.ts', "import { createClient } from '../../api/index.js';\nexport { createClient };\n"],
    ['src/cli/right.ts', "import { createClientWith } from '../api/internal.js';\nexport { createClientWith };\n"],
    ['src/cli/network/right.ts', "import { createClientWith } from '../../api/internal.js';\nexport { createClientWith };\n"],
  ])('%s: %s passes', async (file, text) => {
    expect(await problems(file, text)).toEqual([]);
  });

  it('says where the layers are explained: a section of a file in the repository', async () => {
    const [message] = await problems('src/api/wrong.ts', "import { main } from '../cli/main.js';\nexport { main };\n");
    const [, file, section] = /\(see (\S+), "([^"]+)"\)$/.exec(message!)!;
    expect(fs.readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')).toContain(`\n## ${section}\n`);
  });
});
