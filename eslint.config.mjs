// ESLint: typescript-eslint (strict, type-aware) for every TypeScript file, eslint-plugin-svelte for
// components, Prettier for formatting (eslint-config-prettier turns off the rules it decides).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Import pattern that keeps main's and the preload's modules out of the renderer. */
const RENDERER_STAYS_OUT_OF_MAIN = {
  group: ['**/electron/main/**', '**/electron/preload/**'],
  message: 'The renderer reaches main only through window.api.',
};

export default tseslint.config(
  { ignores: ['out/**', 'out-*/**', 'dist/**', 'node_modules/**', 'test-artifacts/**', 'resources/**'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  ...svelte.configs['flat/recommended'],
  prettier,
  ...svelte.configs['flat/prettier'],
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
        extraFileExtensions: ['.svelte'],
      },
    },
  },
  {
    rules: {
      // Numbers and booleans read naturally in messages; objects and nullish values are still caught.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      // `() => doSomething()` as a callback is idiomatic; a void value used anywhere else is still caught.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests index into fixtures they just built: a wrong index fails the test at once.
    files: ['test/**/*.ts', 'scripts/bench/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: tseslint.parser } },
  },
  {
    // The renderer never reaches main's modules: only the typed bridge on window.api.
    files: ['renderer/**/*.ts', 'renderer/**/*.svelte'],
    rules: { 'no-restricted-imports': ['error', { patterns: [RENDERER_STAYS_OUT_OF_MAIN] }] },
  },
  {
    // Views call queries and mutations (lib/queries.ts), never the bridge directly.
    files: ['renderer/src/views/**/*.svelte', 'renderer/src/views/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            RENDERER_STAYS_OUT_OF_MAIN,
            { group: ['**/lib/api', '$lib/api'], message: 'Views use queries and mutations from lib/queries.ts.' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.cjs', '**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    // A CommonJS file loads its modules with require(); import would not run there.
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
