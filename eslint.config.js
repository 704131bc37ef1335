// Lint: typescript-eslint's recommended rules over the TypeScript tree; formatting is Prettier's job.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import commentPaths from './lint/comment-paths.js';

export default tseslint.config(
  // client/src/openapi.d.ts is generated (client/generate.ts).
  { ignores: ['**/dist/', 'coverage/', 'data/', '**/node_modules/', 'client/src/openapi.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Node's globals for the plain-JavaScript entry points (bin/, console's build script, this file); TypeScript checks its own.
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { URL: 'readonly', console: 'readonly', process: 'readonly' } },
  },
  {
    // The website's islands run in the browser (src/site/browser/, type-checked by its own tsconfig).
    files: ['src/site/browser/**/*.js'],
    languageOptions: { globals: globals.browser },
  },
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-duplicate-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    // Rules that need the types (the server's tree, tsconfig.json): a promise nobody awaits loses its error, and
    // an async function where Fastify or a stream expects a plain callback is called without waiting for it.
    files: ['src/**/*.ts', 'src/**/*.tsx', 'test/**/*.ts', 'bench/**/*.ts', 'chaos/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error', '@typescript-eslint/no-misused-promises': 'error' },
  },
  {
    // Files named in comments exist (lint/comment-paths.js). Migrations and DDL snapshots are frozen history: they name files as they were.
    plugins: { local: { rules: { 'comment-paths': commentPaths } } },
    ignores: ['src/db/migrations/**', 'src/db/dialect/ddl/**'],
    rules: { 'local/comment-paths': 'error' },
  },
);
