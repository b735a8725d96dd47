// ESLint (flat config). `npm run lint` runs it with Prettier's check; `npm test` runs both as its
// `lint` stage. Formatting is Prettier's (eslint-config-prettier, last, turns off the rules that
// would argue with it); this file holds the correctness rules and the layer order.
//
// Layers are enforced with `no-restricted-imports` on the import string: every layer block below
// forbids relative imports that climb (`../`, `../../`, …) into a layer to its right. One block per
// folder; flat config keeps only the last block's options for a rule, so the blocks' `files` never
// overlap. Production code importing test code is a second concern, checked with the
// typescript-eslint twin of the same rule so that its options do not replace the layer rules'.
import { builtinModules } from 'node:module';
import { defineConfig } from 'eslint/config';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import prettier from 'eslint-config-prettier';

const CLIENT_ORDER =
  'Client layers (src/): protocol ← lib ← shared ← workers | data ← ui ← features ← routes ← layout; a layer imports only from ' +
  'layers to its left; workers and data are siblings: the tab reaches the worker only through the types of workers/api (the Comlink ' +
  'contract). src/main.tsx, src/App.tsx and src/router.tsx are the entry. See the README, "map of the code".';
const SERVER_ORDER =
  'Server layers (server/): domain folders (workspace, market, broker, auth, db) ← http | ws ← app.ts, main.ts; the domain raises ' +
  'domain errors and knows no HTTP; http/ and ws/ are siblings and do not import each other; both may import src/protocol and src/lib.';

/** Relative imports that climb into one of `layers` (`../data/db`, `../../ui/Icon`). */
const climbInto = (layers) => `^(\\.\\./)+(${layers.join('|')})(/|$)`;

/** A pattern for `no-restricted-imports` forbidding the layers, with a message naming the order. */
function forbidLayers(from, layers, order = CLIENT_ORDER) {
  return { regex: climbInto(layers), message: `${from} must not import ${layers.join(', ')}. ${order}` };
}

/** Node's built-in modules (`node:fs`, `fs`, `path/posix`, …), for code that runs in browsers too. */
const NODE_BUILTINS = {
  regex: `^(node:|(${builtinModules.map((name) => name.replace(/[/]/g, '\\/')).join('|')})(/|$))`,
  message: 'Node APIs are not available here: this code runs in the browser (and on the server for protocol/lib).',
};
const packages = (names, where) => ({
  regex: `^(${names.map((name) => name.replace(/[/]/g, '\\/')).join('|')})(/|$)`,
  message: `${where} must not depend on ${names.join(', ')}.`,
});

/** Globals of one environment only, forbidden in code that must run in both (protocol, lib). */
const DOM_AND_NODE_GLOBALS = [
  'window',
  'document',
  'navigator',
  'location',
  'localStorage',
  'sessionStorage',
  'indexedDB',
  'process',
  'Buffer',
  '__dirname',
  '__filename',
  'require',
].map((name) => ({ name, message: `src/protocol and src/lib run in the tab, the worker and the server: no DOM or Node globals (${name}).` }));

const layerBlocks = [
  {
    name: 'visores/layers/protocol',
    files: ['src/protocol/**'],
    patterns: [
      forbidLayers('src/protocol', ['lib', 'shared', 'workers', 'data', 'ui', 'features', 'routes', 'layout']),
      NODE_BUILTINS,
      packages(['react', 'react-dom', 'dexie', 'dexie-react-hooks', 'comlink'], 'src/protocol (schemas shared by tab, worker and server)'),
    ],
  },
  {
    name: 'visores/layers/lib',
    files: ['src/lib/**'],
    patterns: [
      forbidLayers('src/lib', ['shared', 'workers', 'data', 'ui', 'features', 'routes', 'layout']),
      NODE_BUILTINS,
      packages(['react', 'react-dom', 'dexie', 'dexie-react-hooks', 'comlink'], 'src/lib (pure code shared by tab, worker and server)'),
    ],
  },
  {
    name: 'visores/layers/shared',
    files: ['src/shared/**'],
    patterns: [forbidLayers('src/shared', ['workers', 'data', 'ui', 'features', 'routes', 'layout'])],
  },
  {
    name: 'visores/layers/workers',
    files: ['src/workers/**'],
    patterns: [
      forbidLayers('src/workers', ['data', 'ui', 'features', 'routes', 'layout']),
      packages(['react', 'react-dom', 'dexie-react-hooks'], 'src/workers (runs in the SharedWorker, which has no React)'),
    ],
  },
  {
    name: 'visores/layers/data',
    files: ['src/data/**'],
    patterns: [
      forbidLayers('src/data', ['ui', 'features', 'routes', 'layout']),
      {
        regex: '^(\\.\\./)+workers/api(\\.js)?$',
        allowTypeImports: true,
        message: `src/data may import only types from src/workers/api (import type), never its values. ${CLIENT_ORDER}`,
      },
      {
        regex: '^(\\.\\./)+workers(/(?!api(\\.js)?$)|$)',
        message: `src/data must not import src/workers (only types of src/workers/api). ${CLIENT_ORDER}`,
      },
    ],
  },
  {
    name: 'visores/layers/ui',
    files: ['src/ui/**'],
    patterns: [forbidLayers('src/ui', ['features', 'routes', 'layout', 'workers'])],
  },
  {
    name: 'visores/layers/features',
    files: ['src/features/**'],
    patterns: [forbidLayers('src/features', ['routes', 'layout', 'workers'])],
  },
  {
    name: 'visores/layers/routes',
    files: ['src/routes/**'],
    patterns: [forbidLayers('src/routes', ['layout', 'workers'])],
  },
  {
    name: 'visores/layers/layout',
    files: ['src/layout/**'],
    patterns: [forbidLayers('src/layout', ['workers'])],
  },
];

// The server may take from the client only what is written for every side.
const SERVER_TO_CLIENT = {
  regex: '^(\\.\\./)+src/(?!(protocol|lib)/)',
  message: 'server/ may import only src/protocol and src/lib from the client (code written for every side).',
};
const DOMAIN_FOLDERS = ['workspace', 'market', 'broker', 'auth', 'db'];
const serverBlocks = [
  // Every server file; the blocks after it repeat this pattern because they replace the options.
  { name: 'visores/layers/server', files: ['server/**'], patterns: [SERVER_TO_CLIENT] },
  {
    name: 'visores/layers/server-http',
    files: ['server/http/**'],
    patterns: [SERVER_TO_CLIENT, forbidLayers('server/http', ['ws'], SERVER_ORDER)],
  },
  {
    name: 'visores/layers/server-ws',
    files: ['server/ws/**'],
    patterns: [SERVER_TO_CLIENT, forbidLayers('server/ws', ['http'], SERVER_ORDER)],
  },
  {
    name: 'visores/layers/server-domain',
    files: DOMAIN_FOLDERS.map((folder) => `server/${folder}/**`),
    patterns: [
      SERVER_TO_CLIENT,
      forbidLayers(`server/{${DOMAIN_FOLDERS.join(',')}}`, ['http', 'ws'], SERVER_ORDER),
      {
        regex: '^(fastify|@fastify/.*)$',
        message: `The server's domain folders (${DOMAIN_FOLDERS.join(', ')}) must not depend on fastify or @fastify/*: they raise domain errors that http/ and ws/ map. ${SERVER_ORDER}`,
      },
    ],
  },
];

export default defineConfig(
  {
    name: 'visores/ignores',
    ignores: ['dist/', 'build/', 'node_modules/', '.test-output/', 'docs/', 'data/', 'test-results/', 'playwright-report/'],
  },
  js.configs.recommended,
  // Not the type-checked variant: it needs a TypeScript program per run (slow on a small machine);
  // `npm run typecheck` already checks the types.
  tseslint.configs.recommended,
  {
    name: 'visores/base',
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // The project's rule: no `any` without a comment saying why. That comment is
      // `// eslint-disable-next-line @typescript-eslint/no-explicit-any -- why`.
      '@typescript-eslint/no-explicit-any': 'error',
      'no-unused-vars': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    name: 'visores/client-globals',
    files: ['src/**'],
    languageOptions: { globals: { ...globals.browser, ...globals.worker } },
  },
  {
    // Its functions passed to page.evaluate() run in the page.
    name: 'visores/screenshots-script',
    files: ['scripts/screenshots.mjs'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    name: 'visores/react-hooks',
    files: ['src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
  },
  ...[...layerBlocks, ...serverBlocks].map(({ name, files, patterns }) => ({
    name,
    files,
    rules: { 'no-restricted-imports': ['error', { patterns }] },
  })),
  {
    name: 'visores/no-dom-or-node-globals',
    files: ['src/protocol/**', 'src/lib/**'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-globals': ['error', ...DOM_AND_NODE_GLOBALS] },
  },
  {
    name: 'visores/production-code-without-test-code',
    files: ['src/**', 'server/**'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', '**/testing/**', '**/testFakes.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+tests(/|$)|(^|/)testing(/|$)|(^|/)testFakes(\\.js)?$',
              message: 'Production code must not import test code (tests/, testing/, testFakes): fakes live under tests/ or beside their tests.',
            },
          ],
        },
      ],
    },
  },
  prettier,
);
