/**
 * The layer rules of src/ (docs/ARCHITECTURE.md, "Map"): every arrow points down. Run by
 * `npm test` (`npm run deps`). Imports only; the SQL-level rule "only src/orders writes order
 * tables" is test/architecture/order-writes.test.ts.
 */
const below = (...dirs) => `^src/(${dirs.join('|')})`;

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'No import circles.', from: {}, to: { circular: true } },
    {
      name: 'lib-imports-nothing-of-ours',
      severity: 'error',
      comment: 'lib/ holds pure helpers: it imports only lib/.',
      from: { path: '^src/lib/' },
      to: { path: '^src/', pathNot: '^src/lib/' },
    },
    {
      name: 'contracts-below-routes-and-services',
      severity: 'error',
      comment: 'Request/response contracts (TypeBox) import only TypeBox, lib/ and the error catalogue.',
      from: { path: '^src/contracts/' },
      to: { path: '^src/', pathNot: '^src/(contracts/|lib/|errors\\.ts$)' },
    },
    {
      name: 'orders-only-through-its-door',
      severity: 'error',
      comment: 'Nothing reaches into src/orders/ except through src/orders/index.ts.',
      from: { path: '^src/', pathNot: '^src/orders/' },
      to: { path: '^src/orders/', pathNot: '^src/orders/index\\.ts$' },
    },
    {
      name: 'only-entry-points-build-the-container',
      severity: 'error',
      comment: 'The composition root is imported by the entry points (server, app, scripts, seed) only; others take Deps from deps.ts.',
      from: { path: '^src/', pathNot: '^src/(server\\.ts|app\\.ts|scripts/|seed/)' },
      to: { path: '^src/container\\.ts$' },
    },
    {
      name: 'http-layer-on-top',
      severity: 'error',
      comment: 'Routes, plugins and the app sit on top: nothing below imports them.',
      from: { path: below('services', 'orders', 'history', 'trends', 'search', 'sync', 'db', 'providers', 'infra', 'lib', 'contracts', 'jobs', 'seed') },
      to: { path: '^src/(routes/|plugins/(?!types\\.ts$)|app\\.ts$|server\\.ts$)' },
    },
    {
      name: 'services-below-jobs',
      severity: 'error',
      comment: 'Job handlers call services; services enqueue through jobs/queue.ts and never import a handler or the job list.',
      from: { path: below('services', 'orders', 'history', 'trends', 'search', 'sync', 'db', 'providers') },
      to: { path: '^src/jobs/(handlers/|index\\.ts$)' },
    },
    {
      name: 'repositories-search-providers-below-services',
      severity: 'error',
      comment: 'Repositories, search, providers and infra import only db/, lib/, infra/, config and errors (and each other downwards), never a service.',
      from: { path: below('db', 'search', 'providers', 'infra') },
      to: { path: below('services', 'orders', 'history', 'trends', 'sync', 'jobs', 'seed', 'scripts') },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js'] },
  },
};
