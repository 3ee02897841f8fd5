import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// undici through its public entry point only: src/api is the library's public face, and its users
// get ordinary undici. The CLI's bundle swaps in a smaller undici at build time (scripts/build.js).
const UNDICI_INTERNALS = "use `import ... from 'undici'`: src/ imports undici's public entry point only (the CLI's build aliases it, scripts/build.js)";
const undiciImports = { regex: '^undici/', message: UNDICI_INTERNALS };
const undiciSyntax = [
  { selector: 'ImportExpression[source.value=/^undici\\//]', message: UNDICI_INTERNALS },
  { selector: 'TSImportType[source.value=/^undici\\//]', message: UNDICI_INTERNALS },
  { selector: 'TSModuleDeclaration[id.value=/^undici\\//]', message: UNDICI_INTERNALS },
];
const noProcessExit = {
  selector: "CallExpression[callee.object.name='process'][callee.property.name='exit']",
  message: 'Return an exit code from main instead of calling process.exit().',
};

// Layers point one way: shared <- api <- render <- cli, config <- cli, and the sandbox stands alone
// (it may use shared), as docs/architecture.md explains. A wrong arrow fails `npm run lint`, and so CI.
const layer = (files, forbidden) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', {
      patterns: [{
        regex: `^(\\.\\./)+(${forbidden.join('|')})/`,
        message: `src/${files[0].split('/')[1]} may not import from src/${forbidden.join(', src/')} (see docs/architecture.md, "Three parts, six layers, arrows one way")`,
      }, undiciImports],
    }],
  },
});

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'bench/node_modules/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly',
        setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly',
        setImmediate: 'readonly', AbortController: 'readonly', AbortSignal: 'readonly', performance: 'readonly',
        TextDecoder: 'readonly', TextEncoder: 'readonly', structuredClone: 'readonly', queueMicrotask: 'readonly',
      },
    },
    rules: {
      'no-restricted-syntax': ['error', noProcessExit],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-control-regex': 'off',
    },
  },
  {
    files: ['src/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [undiciImports] }],
      'no-restricted-syntax': ['error', noProcessExit, ...undiciSyntax],
    },
  },
  {
    // bin/mkt.cjs: CommonJS, as the launcher and bundle it loads are.
    files: ['bin/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  layer(['src/shared/**'], ['api', 'render', 'config', 'cli', 'sandbox']),
  layer(['src/api/**'], ['render', 'config', 'cli', 'sandbox']),
  layer(['src/render/**'], ['config', 'cli', 'sandbox']),
  layer(['src/config/**'], ['api', 'render', 'cli', 'sandbox']),
  layer(['src/sandbox/**'], ['api', 'render', 'config', 'cli']),
  {
    // The CLI is the library's first user: it reaches src/api through the public index and the one
    // seam for what only mkt injects (src/api/internal.ts), never a module behind them.
    files: ['src/cli/**'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{
          regex: '^(\\.\\./)+api/(?!(index|internal)\\.js$)',
          message: 'src/cli may not import from src/api but its index.js (the library) and internal.js (the seam): add what it needs there',
        }, undiciImports],
      }],
    },
  },
);
