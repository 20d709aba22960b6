// Lint rules: typescript-eslint's recommended set, plus the layers of ARCHITECTURE.md
// (eslint.layers.js): no folder imports one above it, so folders never import in a loop.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import { layers } from './eslint.layers.js'

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
    files: ['src/**/*.ts'],
    plugins: { ferry: layers },
    rules: { 'ferry/layers': 'error' },
  },
)
