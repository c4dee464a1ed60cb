import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import generationJobOwner from './eslint-rules/generation-job-owner.js';
import recordQueriesInCore from './eslint-rules/record-queries-in-core.js';

const PACKAGES = ['shared', 'core', 'simulator', 'server', 'worker', 'ops', 'client', 'testing', 'scripts'];
/**
 * Which workspace packages each package's own code may import: dependencies point one way, from the
 * apps down to core and shared. Tests, e2e, faults and bench may use any package, through its entry point.
 */
const MAY_IMPORT = {
  shared: [],
  core: ['shared'],
  simulator: [],
  server: ['core', 'shared'],
  worker: ['core', 'shared'],
  ops: ['core', 'shared'],
  client: ['shared'],
  testing: [],
  scripts: [],
};
/** Another package's files, reached by path: only its entry point (package.json `exports`) is public. */
const REACHING_IN = {
  regex:
    '^(\\.\\./)+((shared|core|simulator|server|worker|ops|client|testing|scripts|e2e|faults|bench)/(src|test|lib)/|.*node_modules/)',
  message: "Import the package's entry point (@mediagen/…) instead of another package's files.",
};

/** The record's tables (every table of `Database`, core/src/db/schema.ts): queried in core only. */
const RECORD_TABLES = [
  'accounts',
  'generations',
  'token_ledger',
  'idempotency_keys',
  'account_traces',
  'closed_accounts',
  'provider_spend_daily',
  'user_spend_daily',
  'spend_budgets',
];
/** The project's own rules (eslint-rules/): one plugin, as flat config lets a plugin name be defined once. */
const mediagen = {
  rules: { 'generation-job-owner': generationJobOwner, 'record-queries-in-core': recordQueriesInCore },
};

function boundaries(files, allowed) {
  const forbidden = PACKAGES.filter((name) => !allowed.includes(name)).flatMap((name) => [
    `@mediagen/${name}`,
    `@mediagen/${name}/*`,
  ]);
  const patterns =
    forbidden.length === 0
      ? [REACHING_IN]
      : [REACHING_IN, { group: forbidden, message: 'Packages depend one way: see MAY_IMPORT in eslint.config.js.' }];
  return { files, rules: { 'no-restricted-imports': ['error', { patterns }] } };
}

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/.data/**', 'client/test-results/**', 'screenshots/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    // The three programs `pnpm typecheck` builds (every Node package, the browser-driving ones, the
    // client): one each, rather than one per package, each reading shared/ and core/ again.
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.node.json', './tsconfig.dom.json', './client/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { disallowTypeAnnotations: false }],
    },
  },
  boundaries(['**/*.ts', '**/*.tsx'], PACKAGES),
  ...Object.entries(MAY_IMPORT).map(([name, allowed]) =>
    boundaries([`${name}/src/**/*.ts`, `${name}/src/**/*.tsx`, `${name}/lib/**/*.ts`, `${name}/*.ts`], allowed),
  ),
  {
    // One owner for a generation's job and files: product code reaches them through it.
    files: ['{core,server,worker,ops}/src/**/*.ts'],
    ignores: ['core/src/queue/job-owner.ts', 'core/src/artifacts/**'],
    plugins: { mediagen },
    rules: { 'mediagen/generation-job-owner': 'error' },
  },
  {
    // One door to the record: the apps read it through GenerationReads and change it through the lifecycle.
    files: ['{server,worker,ops}/src/**/*.ts'],
    plugins: { mediagen },
    rules: { 'mediagen/record-queries-in-core': ['error', { tables: RECORD_TABLES }] },
  },
  {
    files: ['**/*.js', '**/*.config.ts', 'vitest.config.ts'],
    ...tseslint.configs.disableTypeChecked,
  },
);
