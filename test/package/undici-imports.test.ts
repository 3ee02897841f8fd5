// The library imports undici's public entry point only (eslint.config.js): library users get
// ordinary undici, and only the CLI's bundle swaps in its parts (scripts/build.js). Linted as if
// the text were a file of src/.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();
const problems = async (file: string, text: string) => {
  const [result] = await eslint.lintText(text, { filePath: file });
  return result!.messages.filter((message) => message.ruleId?.startsWith('no-restricted-')).map((message) => message.message);
};

describe("src/ imports undici's public entry point only", () => {
  it.each([
    ['src/api/wrong.ts', "import Agent from 'undici/lib/dispatcher/agent.js';\nexport { Agent };\n"],
    ['src/api/wrong.ts', "export { default } from 'undici/lib/global.js';\n"],
    ['src/api/wrong.ts', "export const load = () => import('undici/lib/dispatcher/agent.js');\n"],
    ['src/api/wrong.ts', "export type A = typeof import('undici/lib/dispatcher/agent.js');\n"],
    ['src/cli/wrong.ts', "import type Agent from 'undici/lib/dispatcher/agent.js';\nexport type { Agent };\n"],
    ['src/sandbox/wrong.ts', "import { channels } from 'undici/lib/core/diagnostics.js';\nexport { channels };\n"],
    ['src/types/wrong.d.ts', "declare module 'undici/lib/global.js' {\n  const value: unknown;\n  export default value;\n}\n"],
  ])('%s: %s fails lint', async (file, text) => {
    expect(await problems(file, text)).toEqual([expect.stringMatching(/undici's public entry point only/)]);
  });

  it.each([
    ['src/api/right.ts', "import { Agent } from 'undici';\nexport { Agent };\n"],
    ['src/api/right.ts', "export const load = () => import('undici');\n"],
    ['src/cli/right.ts', "import type { Dispatcher } from 'undici';\nexport type { Dispatcher };\n"],
  ])('%s: %s passes', async (file, text) => {
    expect(await problems(file, text)).toEqual([]);
  });

  it('still holds the layers and process.exit() where it applies', async () => {
    expect(await problems('src/api/wrong.ts', "import { main } from '../cli/main.js';\nexport { main };\n")).toEqual([expect.stringMatching(/may not import from/)]);
    expect(await problems('src/cli/wrong.ts', 'export const quit = () => process.exit(1);\n')).toEqual([expect.stringMatching(/process\.exit/)]);
  });
});
