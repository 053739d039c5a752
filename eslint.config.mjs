// Flat ESLint config for the whole workspace.
// Module boundaries are enforced on two axes (scope, type); see ../shared/ARCHITECTURE.md "Style".
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.nx/**', '**/coverage/**', 'tmp/**', '.kafka/**', '**/*.cjs', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { '@nx': nx },
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/consistent-type-imports': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          banTransitiveDependencies: false,
          depConstraints: [
            // what a project may import, by kind
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:contracts', 'type:util', 'type:testing'] },
            { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:contracts', 'type:util'] },
            { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:contracts', 'type:util', 'type:testing'] },
            {
              sourceTag: 'type:contracts',
              onlyDependOnLibsWithTags: ['type:contracts'],
              // contracts are plain TypeScript: no framework, ORM or Kafka client
              bannedExternalImports: ['@nestjs/*', 'typeorm', 'kafkajs', 'pg', 'ioredis', 'fastify', 'nestjs-pino'],
            },
            // which service may import what: its own scope and shared libs only
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:gateway', 'scope:shared'] },
            { sourceTag: 'scope:agents', onlyDependOnLibsWithTags: ['scope:agents', 'scope:shared'] },
            { sourceTag: 'scope:messaging', onlyDependOnLibsWithTags: ['scope:messaging', 'scope:shared'] },
            { sourceTag: 'scope:responder', onlyDependOnLibsWithTags: ['scope:responder', 'scope:shared'] },
            { sourceTag: 'scope:webhooks', onlyDependOnLibsWithTags: ['scope:webhooks', 'scope:shared'] },
            { sourceTag: 'scope:billing', onlyDependOnLibsWithTags: ['scope:billing', 'scope:shared'] },
            { sourceTag: 'scope:sandbox', onlyDependOnLibsWithTags: ['scope:sandbox', 'scope:shared'] },
            { sourceTag: 'scope:crm', onlyDependOnLibsWithTags: ['scope:crm', 'scope:shared'] },
            { sourceTag: 'scope:campaigns', onlyDependOnLibsWithTags: ['scope:campaigns', 'scope:shared'] },
            // the dashboard runs in browsers: shared libs only, and nothing of the server side
            {
              sourceTag: 'scope:dashboard',
              onlyDependOnLibsWithTags: ['scope:dashboard', 'scope:shared'],
              bannedExternalImports: ['@nestjs/*', 'typeorm', 'kafkajs', 'pg', 'ioredis', 'fastify', 'nestjs-pino', 'node:*'],
            },
            // only the kafka lib may talk to kafkajs directly
            { sourceTag: 'type:app', bannedExternalImports: ['kafkajs'] },
          ],
        },
      ],
    },
  },
  // SQL lives in stores (issue 34): services, workers and consumers ask their feature's `*.store.ts`, which holds every
  // statement with the tenant id first, so the decisions can be unit-tested against a fake of the store. An app joins
  // this list once its SQL has moved.
  {
    files: ['apps/webhook-service/src/**/*.ts', 'apps/agent-service/src/**/*.ts', 'apps/campaign-service/src/**/*.ts', 'apps/gateway/src/**/*.ts', 'apps/crm-service/src/**/*.ts', 'apps/whatsapp-sandbox/src/**/*.ts', 'apps/responder-service/src/**/*.ts', 'apps/billing-service/src/**/*.ts', 'apps/messaging-service/src/**/*.ts'],
    ignores: ['**/*.store.ts', '**/migrations/**', '**/*.spec.ts', '**/*.integration-spec.ts', '**/test/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(query|createQueryBuilder)$/]',
          message: "SQL belongs in the feature's *.store.ts (issue 34): call a store method named for what it does.",
        },
      ],
    },
  },
  // The gateway's HTTP plumbing imports libraries and itself, never a feature (issue 34): a feature hands in what it
  // needs (parsers, hooks, body types) through gateway-app.ts. Its specs may use the test harness.
  {
    files: ['apps/gateway/src/http/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*', '!../test', '!../test/*'],
              message: 'http/ is plumbing: it imports libraries and itself only. Let the feature hand in what it needs through gateway-app.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.integration-spec.ts', '**/test/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', 'no-console': 'off' },
  },
);
