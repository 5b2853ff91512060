// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/**
 * Lint rules (docs/architecture.md: "Enforced"). The floors themselves are checked by dependency-cruiser
 * (.dependency-cruiser.cjs); this file checks the code: promises are awaited or handled, types are used
 * consistently, and SQL is written only in src/db and src/store.
 */

/** Kysely's query builders: statements are built only in the data floors. */
const QUERY_BUILDERS = ['selectFrom', 'insertInto', 'updateTable', 'deleteFrom', 'replaceInto', 'mergeInto'];

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'dist-bench/',
      'node_modules/',
      'coverage/',
      'data/',
      'test-results/',
      'tmp-scripts/',
      'clients/**/dist/',
      'clients/typescript/src/openapi.ts',
      'clients/typescript/src/gql/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'off',
      'no-console': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/db/**', 'src/store/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: `CallExpression[callee.property.name=/^(${QUERY_BUILDERS.join('|')})$/]`,
          message: 'SQL is written in src/store (or src/db): call a store function instead (docs/architecture.md).',
        },
        {
          selector: "TaggedTemplateExpression[tag.name='sql']",
          message: 'SQL is written in src/store (or src/db): call a store function instead (docs/architecture.md).',
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  prettier,
);
