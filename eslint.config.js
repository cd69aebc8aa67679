// ESLint (flat config), run by `npm run lint` and by `npm test`: JavaScript's and TypeScript's
// recommended rules, the rules of hooks, and jsx-a11y's recommended accessibility rules. A rule
// turned off for a line says why beside it.
import js from '@eslint/js'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['build/', 'public/build/', 'node_modules/', 'data/', 'test-results/', 'playwright-report/', '.cache/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      // `_name` marks an argument or binding kept on purpose (a Remix signature, a skipped tuple item)
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['app/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      ...jsxA11y.flatConfigs.recommended.rules,
    },
  },
  {
    files: ['public/**/*.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    files: ['tests/**/*.ts', 'bench/**/*.ts'],
    languageOptions: { globals: { ...globals.vitest } },
    rules: {
      // tests read JSON answers as whatever came back: their assertions are the type check
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
)
