import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
);
