// Lint rules: typescript-eslint everywhere, floating promises are errors, and workflow code may not touch Node I/O.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Outside workflow code, Temporal is reached through workflows/client.ts. */
const REACH_WORKFLOWS_THROUGH_CLIENT = {
  regex: '(^|/)workflows/(?!client\\.js$|ids\\.js$|index\\.js$)',
  allowTypeImports: true,
  message: 'Reach workflows through workflows/client.ts.',
};

/** In api/, only the composition root (api/server.ts) reads the configuration or opens the database. */
const API_SERVICES_ONLY = {
  regex: '(^|/)platform/(config|database)\\.js$',
  allowTypeImports: true,
  message:
    'Only api/server.ts reads the configuration or opens the database; take them from the ApiServices handed in.',
};

export default tseslint.config(
  { ignores: ['node_modules', 'dist', '.data', '.tools', 'bin'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // The admin app's one browser script (api/admin-app/assets/admin.js), served as is.
    files: ['api/admin-app/assets/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: { document: 'readonly', window: 'readonly', navigator: 'readonly', setTimeout: 'readonly' },
    },
  },
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // zod's named `z` is a namespace object holding everything, its 60-odd locales too, which a bundle (the CLI's,
      // deploy/cli-bundle.ts) must then keep and parse at every start; `import * as z` lets it keep what is used.
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='zod'] > ImportSpecifier[imported.name='z']",
          message: "Write import * as z from 'zod'.",
        },
      ],
    },
  },
  {
    // Tests read JSON response bodies, whose shape each assertion states.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Workflows run in Temporal's deterministic sandbox: they import the workflow SDK, each other, and the types of
    // activities; everything else (Node, the app, the database) is reached through activities.
    // The app's side of Temporal (client.ts, registry.ts, outbox.ts) lives beside the workflows but never runs in the
    // sandbox; workflow code may not import it. Workflow code may import the types of the requests the domain makes.
    files: ['workflows/**/*.ts'],
    ignores: ['workflows/client.ts', 'workflows/registry.ts', 'workflows/outbox.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '^(?!@temporalio/workflow$|@temporalio/interceptors-opentelemetry/lib/workflow/index\\.js$|\\./|\\.\\./activities/|\\.\\./domain/unit-of-work\\.js$|\\.\\./platform/request-id-carriers\\.js$)',
              message:
                "Workflow code imports only @temporalio/workflow, OpenTelemetry's workflow interceptors, other workflow modules, activity types and platform/request-id-carriers.ts.",
            },
            {
              regex: '^\\.\\./(activities/|domain/unit-of-work\\.js$)',
              allowTypeImports: true,
              message: 'Workflow code may import only the types of activities and of domain/unit-of-work.ts.',
            },
            {
              regex: '^\\./(client|registry|outbox)\\.js$',
              message: "The app's side of Temporal never runs in the workflow sandbox.",
            },
          ],
        },
      ],
    },
  },
  {
    // workflows/client.ts is the one door to Temporal for the rest of the app; it never runs in the sandbox.
    files: ['activities/**/*.ts', 'worker/**/*.ts', 'cli/**/*.ts', 'api/server.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [REACH_WORKFLOWS_THROUGH_CLIENT] }],
    },
  },
  {
    // The API's composition root is api/server.ts: it reads the configuration and opens the database, and every other
    // module of api/ is handed them in the services object (api/services.ts). Types may be imported.
    files: ['api/**/*.ts'],
    ignores: ['api/server.ts', 'api/routes/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [REACH_WORKFLOWS_THROUGH_CLIENT, API_SERVICES_ONLY] },
      ],
    },
  },
  {
    // Domain code takes what it needs as arguments (a transaction, a WorkflowRequests, settings): it never reaches
    // for the API, the process singletons of platform/, the database edge or Temporal.
    files: ['domain/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(api|workflows|activities|worker|cli|db)/',
              message: 'domain/ depends on nothing above it.',
            },
            {
              regex: '(^|/)platform/',
              allowTypeImports: true,
              message: 'domain/ is handed its settings and clients; it may import only their types.',
            },
            {
              regex: '^@temporalio/',
              message:
                'domain/ is handed a WorkflowRequests (domain/unit-of-work.ts); it never imports Temporal.',
            },
          ],
        },
      ],
    },
  },
  {
    // @folio/client is written from the spec and docs only, as any client author would write one: it imports
    // nothing of the server, and no package (fetch and WebCrypto are enough). Its build scripts (scripts/: the
    // type generator) run in this repository, not in a caller's program: they may use its devDependencies.
    files: ['clients/**/*.ts'],
    ignores: ['clients/*/scripts/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(api|domain|platform|workflows|activities|worker|cli|db|deploy|test)/',
              message: 'clients/ imports nothing of the server.',
            },
            {
              regex: '^(?!node:|\\.)',
              message: 'clients/ has no dependencies: node: built-ins and its own modules only.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['clients/*/scripts/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(api|domain|platform|workflows|activities|worker|cli|db|deploy|test)/',
              message: 'clients/ imports nothing of the server.',
            },
          ],
        },
      ],
    },
  },
  {
    // Routes are independent of each other: shared pieces live in api/middleware or api/presenters.
    files: ['api/routes/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)workflows/(?!client\\.js$)',
              allowTypeImports: true,
              message: 'Reach workflows through workflows/client.ts.',
            },
            API_SERVICES_ONLY,
            {
              regex: '^\\./[^/]+\\.js$',
              message:
                'A route file does not import another route file; move the shared piece to api/middleware or api/presenters.',
            },
            {
              regex: '^\\.\\./(drive|documents)/',
              message: 'A route file does not import another route file.',
            },
          ],
        },
      ],
    },
  },
);
