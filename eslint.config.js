// @ts-check
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'

const electronImportBan = {
  patterns: [
    {
      group: ['electron', 'electron/*'],
      message: 'Only main/shell/ and preload/ may import electron; everything else must run in plain Node.',
    },
  ],
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
