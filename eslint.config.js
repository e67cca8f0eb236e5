// @ts-check
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'

import { builtinModules } from 'node:module'

const electronPattern = {
  group: ['electron', 'electron/*'],
  message: 'Only main/shell/ and preload/ may import electron; everything else must run in plain Node.',
}
const electronImportBan = { patterns: [electronPattern] }

/**
 * Layers: main/, preload/ and renderer/ all depend on common/, never on each other (VS Code's `common`).
 * `layerBan(...)` lists the sibling folders a layer may not reach into.
 */
const layerPattern = (folder, from) => ({
  group: [`**/${folder}`, `**/${folder}/**`, `${folder}/**`],
  message: `${from} may not import ${folder}/: shared code lives in common/ (main, preload and renderer → common, never sideways).`,
})
const layerBan = (from, folders, extra = []) => ({
  patterns: [...(from === 'main/shell/' || from === 'preload/' ? [] : [electronPattern]), ...folders.map((f) => layerPattern(f, from)), ...extra],
})
/** common/ runs in every process: no Node built-ins, no DOM libraries, no Electron. */
const commonOnlyPortable = {
  group: ['node:*', ...builtinModules.flatMap((m) => [m, `${m}/*`]), 'react', 'react-dom', 'react-dom/*'],
  message: 'common/ runs in every process: no Node built-ins, no Electron, no React or DOM code.',
}

/**
 * The same boundary for the forms no-restricted-imports does not see: `require('electron')` and
 * `import('electron')` (a string or a plain template literal naming electron or electron/…).
 */
const electronModule = '/^electron($|[/])/'
const electronSpecifiers = (parent) => [
  `${parent} > Literal[value=${electronModule}]`,
  `${parent} > TemplateLiteral[expressions.length=0] > TemplateElement[value.cooked=${electronModule}]`,
]
const electronSyntaxBan = [
  ...electronSpecifiers("CallExpression[callee.type='Identifier'][callee.name='require']").map((selector) => ({
    selector,
    message: 'Only main/shell/ and preload/ may require electron; everything else must run in plain Node.',
  })),
  ...electronSpecifiers('ImportExpression').map((selector) => ({
    selector,
    message: 'Only main/shell/ and preload/ may import electron; everything else must run in plain Node.',
  })),
]

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'release/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      'no-restricted-imports': ['error', electronImportBan],
      'no-restricted-syntax': ['error', ...electronSyntaxBan],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    // The Electron shell, the preload bridge and the fake-electron unit tests are the only places allowed to name electron.
    files: ['main/shell/**', 'preload/**', 'test/electron/**', 'test/unit/shell/**', 'test/e2e/electron-smoke.test.ts', 'electron.vite.config.ts'],
    rules: { 'no-restricted-imports': 'off', 'no-restricted-syntax': 'off' },
  },
  { files: ['main/**'], ignores: ['main/shell/**'], rules: { 'no-restricted-imports': ['error', layerBan('main/', ['renderer', 'preload'])] } },
  { files: ['main/shell/**'], rules: { 'no-restricted-imports': ['error', layerBan('main/shell/', ['renderer', 'preload'])] } },
  { files: ['preload/**'], rules: { 'no-restricted-imports': ['error', layerBan('preload/', ['main', 'renderer'])] } },
  { files: ['renderer/**'], rules: { 'no-restricted-imports': ['error', layerBan('renderer/', ['main', 'preload'])] } },
  {
    files: ['common/**'],
    rules: {
      'no-restricted-imports': ['error', layerBan('common/', ['main', 'preload', 'renderer'], [commonOnlyPortable])],
      'no-restricted-syntax': ['error', ...electronSyntaxBan],
    },
  },
  {
    files: ['renderer/**/*.tsx', 'renderer/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
)
