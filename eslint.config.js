import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Layers point one way: shared <- api <- render <- cli, config <- cli, and the sandbox stands alone
// (it may use shared). A wrong arrow fails `npm run lint`, and so CI.
const layer = (files, forbidden) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', {
      patterns: [{
        regex: `^(\\.\\./)+(${forbidden.join('|')})/`,
        message: `src/${files[0].split('/')[1]} may not import from src/${forbidden.join(', src/')} (see STYLE: layers point one way)`,
      }],
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
      'no-restricted-syntax': ['error', {
        selector: "CallExpression[callee.object.name='process'][callee.property.name='exit']",
        message: 'Return an exit code from main instead of calling process.exit().',
      }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-control-regex': 'off',
    },
  },
  layer(['src/shared/**'], ['api', 'render', 'config', 'cli', 'sandbox']),
  layer(['src/api/**'], ['render', 'config', 'cli', 'sandbox']),
  layer(['src/render/**'], ['config', 'cli', 'sandbox']),
  layer(['src/config/**'], ['api', 'render', 'cli', 'sandbox']),
  layer(['src/sandbox/**'], ['api', 'render', 'config', 'cli']),
);
