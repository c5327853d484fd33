// `npm run lint`: ESLint's and typescript-eslint's recommended rules over the TypeScript sources.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', '.svc-data/', 'custom-elements.json', 'bench/results.json'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // The relay's rooms (docs/relay.md, "Inside the relay"): it reads the wire contract from
    // core/wire.ts, not from the browser's client, and a route never imports another route.
    files: ['src/relay/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: 'core/relay-client\\.js$', message: 'The relay imports the wire contract from core/wire.ts.' }] }] },
  },
  {
    files: ['src/relay/routes/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: 'core/relay-client\\.js$', message: 'The relay imports the wire contract from core/wire.ts.' },
            { regex: '^\\./', message: 'A route does not import another route: what two routes share has a module of its own in src/relay/.' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
