// Lint rules: typescript-eslint's recommended set, plus the boundaries of
// ARCHITECTURE.md: workers never import the HTTP source.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', '.tmp/**', '.scratch/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-throw-literal': 'error',
    },
  },
  {
    // Pipeline scripts run in the sandbox, where the function library is global; a name it
    // does not define fails at run time and in the golden tests.
    files: ['conf.d/pipeline/**/*.js'],
    languageOptions: { sourceType: 'script' },
    rules: { 'no-undef': 'off' },
  },
  {
    files: ['workers/**/*.ts', 'src/decode/**/*.ts', 'src/pipeline/**/*.ts'],
    ignores: ['src/pipeline/settings.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/sources/**'], message: 'decode code never imports the HTTP source' },
          ],
        },
      ],
    },
  },
)
