// Import boundaries (docs/ARCHITECTURE.md, "Layers"), checked by `npm run lint`. Paths are relative to
// the repository root. The Node code's layers come first; web/ (the browser console and the script
// that builds it) has the rules at the end.

/** Pure engines: no I/O, reached directly or through anything they import. Add new engines here. */
const PURE_ENGINES = [
  'lib/oncall/',
  'lib/integrations/adapters/',
  'lib/encoding/',
  'lib/rule-engine/',
  'lib/escalation/engine/',
  'lib/notify/content/',
  'lib/chat-cards/',
  'lib/calendars/icalendar/',
];

/**
 * The one exception to "no folder cycles": the areas of the on-call model reference each other's
 * objects, and each owns part of every rule between them. A team creates its schedule and its
 * escalation policy and shows their on-call; deleting a schedule or a policy clears the teams that
 * point to it; team admins may edit their team's schedule and its events; events resolve their
 * attendees among account users; creating or deleting an account user edits team memberships and
 * takes the person out of every event. Module cycles stay forbidden among them too.
 */
const ON_CALL_MODEL = '^lib/(teams|schedules|escalation-policies|events|account-users)$';

/** What counts as I/O for a pure engine. */
const IO = [
  '^lib/store/',
  '^lib/queues/',
  '^lib/config[.]ts$',
  '^node_modules/@aws-sdk/',
  '^(node:)?(http|https|http2|net|tls|dgram|dns|fs|fs/promises|child_process)$',
];

/** The only files that may read or write the table directly, and keys.ts, which only they read. */
const STORE_FILES = '(^|/)(store|[a-z-]+-store)[.]ts$';
const STORE_OR_KEYS_FILES = '(^|/)(store|[a-z-]+-store|keys)[.]ts$';

const asPattern = (path) => path.replace(/[.]/g, '[.]');

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No module imports itself through others.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      comment: 'No two folders import each other, directly or around a loop (but see ON_CALL_MODEL).',
      severity: 'error',
      scope: 'folder',
      from: { pathNot: ON_CALL_MODEL },
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles-out-of-the-on-call-model',
      comment: 'The areas of the on-call model may form loops among themselves, never through another folder.',
      severity: 'error',
      scope: 'folder',
      from: { path: ON_CALL_MODEL },
      to: { circular: true, path: `^(?!${ON_CALL_MODEL.slice(1)})` },
    },
    {
      name: 'runtime-never-imports-infra',
      comment: 'The deployed code (functions/, lib/) depends on nothing of the infrastructure folder; infra/ imports lib/.',
      severity: 'error',
      from: { path: '^(functions|lib)/' },
      to: { path: '^infra/' },
    },
    {
      name: 'alert-transitions-ask-escalation-narrowly',
      comment:
        'Alert transitions ask three things of escalation (docs/ARCHITECTURE.md, "Alerts, escalation, notify and routing"): ' +
        'the stop of acknowledge and resolve, the step of a reject, the page of a hand-off.',
      severity: 'error',
      from: { path: '^lib/alert-transitions/' },
      to: { path: '^lib/escalation/', pathNot: '^lib/escalation/(stop-escalation|reject-workflows|page-handoff)[.]ts$' },
    },
    {
      name: 'functions-never-reach-a-store',
      comment: 'functions/ parse the event, call one use case and shape the response: no table access.',
      severity: 'error',
      from: { path: '^functions/' },
      to: { path: ['^lib/store/', STORE_FILES, '^lib/[^/]+/keys[.]ts$'] },
    },
    {
      name: 'table-access-only-in-stores',
      comment: "In lib/, only lib/store and an area's store files (store.ts, *-store.ts, and keys.ts) use the table primitives.",
      severity: 'error',
      from: { path: '^lib/', pathNot: ['^lib/store/', STORE_OR_KEYS_FILES] },
      to: {
        path: ['^lib/store/(client|commands|items|counters|grouped-writes)[.]ts$', '^node_modules/@aws-sdk/(client|lib|util)-dynamodb/'],
      },
    },
    {
      name: 'keys-only-in-stores',
      comment: "An area's keys.ts is read by store files (store.ts, *-store.ts) alone,",
      severity: 'error',
      from: { pathNot: STORE_FILES },
      to: { path: '^lib/[^/]+/keys[.]ts$' },
    },
    {
      name: 'keys-only-in-their-own-area',
      comment: '…and only by the store files of its own area.',
      severity: 'error',
      from: { path: '^lib/([^/]+)/' },
      to: { path: '^lib/[^/]+/keys[.]ts$', pathNot: '^lib/$1/keys[.]ts$' },
    },
    {
      name: 'store-knows-no-domain',
      comment: 'lib/store imports nothing from the areas, lib/http or lib/list: only the shared kernel.',
      severity: 'error',
      from: { path: '^lib/store/' },
      to: {
        path: '^lib/',
        pathNot: ['^lib/store/', '^lib/(entities|ids|config|clock|group-commit|sdk|audit-actor|async-context|load-once)[.]ts$'],
      },
    },
    {
      name: 'http-stays-below-the-areas',
      comment: 'lib/http (errors, validation, request, results, references) is imported by every area and imports none.',
      severity: 'error',
      from: { path: '^lib/http/' },
      to: { path: '^lib/', pathNot: ['^lib/(http|store|encoding)/', '^lib/(entities|ids|config|log|group-commit|lazy-schema)[.]ts$'] },
    },
    {
      name: 'list-stays-below-the-areas',
      comment: 'lib/list (the list engine and its sources) knows no area and no store; it reads its read budget from the config.',
      severity: 'error',
      from: { path: '^lib/list/' },
      to: { path: '^lib/', pathNot: ['^lib/(list|http)/', '^lib/(entities|ids|config)[.]ts$'] },
    },
    {
      name: 'encoding-imports-nothing-of-lib',
      comment: 'lib/encoding (form bodies, body limits, JSON data, ISO datetimes) is pure parsing that every layer may use.',
      severity: 'error',
      from: { path: '^lib/encoding/' },
      to: { path: '^lib/', pathNot: '^lib/encoding/' },
    },
    {
      name: 'outbound-imports-nothing-of-lib',
      comment: 'lib/outbound (the guarded HTTP client) takes its settings as options: no configuration, no area.',
      severity: 'error',
      from: { path: '^lib/outbound/' },
      to: { path: '^lib/', pathNot: '^lib/outbound/' },
    },
    {
      name: 'queues-stay-on-the-kernel',
      comment: 'lib/queues (the SQS client, the queues, timers, depths) knows no area: areas send through it.',
      severity: 'error',
      from: { path: '^lib/queues/' },
      to: { path: '^lib/', pathNot: ['^lib/queues/', '^lib/[^/]+[.]ts$'] },
    },
    {
      name: 'auth-stays-below-the-areas',
      comment: 'lib/auth (passwords, JWTs, permissions, the principal cache, attempt limits) is used by areas and imports none.',
      severity: 'error',
      from: { path: '^lib/auth/' },
      to: { path: '^lib/', pathNot: ['^lib/(auth|http|store|encoding)/', '^lib/[^/]+[.]ts$'] },
    },
    {
      name: 'kernel-imports-no-folder',
      comment: 'The files at the top of lib/ (registry, ids, config, log, group commit) import no folder of lib/.',
      severity: 'error',
      from: { path: '^lib/[^/]+[.]ts$' },
      to: { path: '^lib/[^/]+/' },
    },
    {
      name: 'pure-engines-do-no-io',
      comment:
        'Pure engines are tested without emulators: they reach no store, queue, config, AWS SDK, network or file ' +
        'system, through no module they import.',
      severity: 'error',
      from: { path: PURE_ENGINES.map((p) => `^${asPattern(p)}`) },
      to: { path: IO, reachable: true },
    },
    {
      name: 'console-stays-in-the-browser',
      comment:
        'web/src is bundled for the browser: it imports its own files and Preact, never the service (lib/, infra/), ' +
        'Node built-ins or other packages. The API types it uses are its own copy (web/src/types.ts).',
      severity: 'error',
      from: { path: '^web/src/' },
      to: { pathNot: ['^web/src/', '^node_modules/preact/'] },
    },
    {
      name: 'console-is-read-only-by-its-tests',
      comment: 'Only the console and its tests (test/web) import web/src; the service builds it through web/build.ts.',
      severity: 'error',
      from: { pathNot: ['^web/src/', '^test/web/'] },
      to: { path: '^web/src/' },
    },
    {
      name: 'console-scripts-read-only-the-openapi-document',
      comment:
        'The Node scripts under web/ build the console (build.ts: Node and esbuild only, so infra/ and test/ may import it ' +
        'without a loop back) and generate its API types from the OpenAPI document (the route table and the document ' +
        'builder, nothing else of the service). The screenshots, which drive the whole runtime, live in test/web/screenshots.',
      severity: 'error',
      from: { path: '^web/', pathNot: '^web/src/' },
      to: { path: '^(lib|functions|infra|test|bench)/', pathNot: ['^lib/api/route-table[.]ts$', '^lib/openapi/document[.]ts$'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(web/dist|cdk[.]out|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
