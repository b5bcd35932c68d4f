// Every function's bundle as the stack builds it (infra/bundling.ts, esbuild's metafile read by
// infra/bundle-analysis.ts): what a cold start loads within budget, each heavy package only in the
// functions that run it, and the packages of rare paths only in the chunks loaded on first use
// (issue 21: code a function does not run is not in its bundle). The expectations are
// written out here, not derived from the catalogue: a bundle that grows, or a heavy package that
// reaches one more function, fails this test and has to be argued for in the change that does it.
// `npx tsx bench/bundle-report.ts <function>` shows what a bundle holds and which import brings it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleFunction, packageOf, type FunctionBundle } from '../../infra/bundle-analysis';
import { deferClassicZod, ZOD_MINI_APART_ENTRIES, zodMiniOnItsOwn } from '../../infra/bundling';
import { FUNCTIONS, SIP_MEDIA_FUNCTION } from '../../infra/functions';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The target of issue 21 for every function's code. */
const BUDGET_KIB = 600;

/**
 * Everything a function can ever load (at start and on first use) stays within this ceiling: a lazy
 * chunk does not grow unnoticed either. The largest today is the sweeper's, 1 042 KiB (it re-drives
 * every pipeline, and settles the audit trail's unfinished events since issue 23 put them there;
 * 1 030 before): the ceiling may only come down. Raised once, for calls you can answer (issue 24):
 * the Chime SDK Voice client is a chunk of its own (44.5 KiB) that the notifying functions load with
 * their first such call only; 35 KiB of it are the package's schemas, which esbuild keeps whole (its
 * error registrations are side effects), unlike End User Messaging's. The sweeper holds 1 091 KiB with it.
 * Raised again by 5 KiB in issue 21's cold-start work: each piece moved out of a start into a chunk
 * of its own (web push's delivery, an automation's outbound client, the compression middleware, the
 * routes loaded with their first request) adds its chunk's wrapper and import code, and the
 * canary's resolve (a first-use chunk of the sweeper) now records the escalation's stop itself:
 * 1 098.7 KiB in all, 582.7 at start (598.5 before). Raised by 1 KiB with issue 21's shared calls:
 * the steps' people read together, the unrouted entries removed together and a routing's entries
 * packed at ids before the outcome's are in every paging function (the sweeper: 1 100.4 KiB in all,
 * 584.3 at start). Raised by 7 KiB when the workers' zod/mini was built apart (infra/bundling.ts
 * zodMiniOnItsOwn): the escalation worker holds the configuration's builders twice, 22 KiB apart at
 * start and inside zod's core in the chunk its Slack path loads, 1 107.7 KiB in all (1 091.1 before)
 * for 60 KiB less at start (541.1 → 480.7). By 1 KiB more when lazy stand-ins took zod's registry
 * from mini's builders (lib/lazy-schema.ts), so that the respond, SMS replies and delivery receipts
 * functions, whose response schemas are mini's, load no classic API at start (1 108.5). By 1 KiB
 * more when held-back counts learned to place a field spread over two counter items
 * (lib/store/spread-fields.ts: a routing's and a step's timeline count with their pages; the
 * escalation worker 1 109.1). By 5 KiB more when a step loaded the delivery plan with the first
 * people it loads (lib/escalation/inputs.ts), so that an acknowledgement's stop does not load the
 * rule engine in the functions that answer pages: where the plan is also imported statically (the
 * paging functions' sends) esbuild splits what both reach into more chunks, 30 → 35 files in the
 * escalation worker and their wrappers' 2.3 KiB (1 111.6 in all, 483.4 at start).
 */
const ALL_CODE_KIB = 1115;

const PAGING = ['broadcasts', 'smsInbound', 'routingWorker', 'escalationWorker', 'sweeper'];
/** Slack's interactions and /oncall: it sends nothing itself (clicks are run by the escalation worker), but matches rules through /oncall page. */
const SLACK = ['slack'];
const RULE_EDITORS = ['routers', 'notificationRules', 'automations'];
/** Functions that acknowledge or resolve alerts for senders, heartbeats and imports, and page nobody. */
const RESOLVING = ['inbound', 'ingestWorker', 'integrations', 'imports'];
/** The functions fed by queues and the schedule: they authenticate no one. */
const WORKERS = ['routingWorker', 'escalationWorker', 'sweeper', 'ingestWorker', 'webhookWorker'];

/**
 * Which functions may hold each heavy package (all of it, or any part), and why they run it.
 * Exactly these: one more function fails, and so does one fewer (then the list is tightened).
 */
const HEAVY_PACKAGES: Record<string, string[]> = {
  // Delivery providers: the functions that send (pages, SMS replies, welcome and password e-mail).
  '@aws-sdk/client-sesv2': [...PAGING, 'accountUsers', 'public'],
  '@aws-sdk/client-pinpoint-sms-voice-v2': [...PAGING, 'accountUsers', 'public'],
  '@aws-sdk/client-chime-sdk-voice': [...PAGING, 'accountUsers', 'public'],
  // Voicemail links are signed without S3's client (lib/voice-calls/s3-link.ts): in no function.
  '@aws-sdk/client-s3': [],
  '@aws-sdk/s3-request-presigner': [],
  // Regular expressions of rules, evaluated where alerts are routed or paged, checked where rules are edited.
  // (the SIP media function: a key pressed in a page's call acts on the alert, as a one-click response does;
  // the functions whose senders and heartbeats resolve alerts hold them through the escalation step,
  // which acknowledge and resolve run to record the stop: lib/escalation/stop-escalation.ts; RE2 also
  // where imports resolve)
  // (imports resolves alerts without a step that pages: the delivery plan, and RE2 with it, never loads there)
  re2js: [...PAGING, ...SLACK, ...RULE_EDITORS, ...RESOLVING.filter((name) => name !== 'imports'), 'alerts', 'respond', 'sipMedia'],
  yaml: [...PAGING, ...SLACK, ...RULE_EDITORS, ...RESOLVING.filter((name) => name !== 'imports'), 'alerts', 'respond', 'sipMedia'],
  // Account templates compiled where they are rendered (pages, broadcasts, going on call, routers'
  // templates) or checked (the account's templates, routers' and automations' templates);
  // notification rules, SMS replies and Slack's messages have none.
  handlebars: ['broadcasts', 'routingWorker', 'escalationWorker', 'sweeper', 'routers', 'automations', 'account'],
  // Phone numbers checked where they are written (signup writes none; SCIM provisioning does).
  'libphonenumber-js': ['accountUsers', 'scim'],
  jmespath: ['ingestWorker'],
  // ID tokens of single sign-on are verified where the issuer's callback lands.
  jose: ['sso'],
  // Login tokens (lib/auth/jwt.ts) are checked by every function behind the API, a new one too.
  jsonwebtoken: Object.keys(FUNCTIONS).filter((name) => !WORKERS.includes(name)),
  // Cut to the satisfies() jsonwebtoken calls (infra/bundled/semver-satisfies.ts): in no function.
  semver: [],
  // Replaced by lib/slack-client/web-api.ts: in no function.
  '@slack/web-api': [],
  axios: [],
};

/**
 * Packages of paths a function may never take, imported dynamically (their own chunks, lib/on-first-use.ts),
 * and the functions that still load them at start: a provider loads with the first message it
 * sends (a deployment that does not configure it never does); RE2 with the first rule holding a
 * $regex; YAML with the first rule text read (the automations function's routes that read
 * settings, each loaded with its first request); Handlebars with the first account template; the
 * phone metadata with the first phone number written; JOSE with the first single sign-on callback.
 */
const ON_FIRST_USE: Record<string, string[]> = {
  '@aws-sdk/client-sesv2': [],
  '@aws-sdk/client-pinpoint-sms-voice-v2': [],
  '@aws-sdk/client-chime-sdk-voice': [],
  re2js: [],
  yaml: [],
  handlebars: [],
  'libphonenumber-js': [],
  jose: [],
  // With the first login token signed or checked: a request with an API key never loads it.
  jsonwebtoken: [],
  // With the first answer compressed (over 1 KB, to a client that takes br or gzip), node:zlib with it.
  '@middy/http-content-encoding': [],
  // The SSRF guard's address parsing: with the first push sent (lib/notify/providers/web-push-delivery.ts)
  // or automation run, where a page or a routed alert may need it; at start only where an address is
  // checked on the request path (imports' sources, the webhook worker's deliveries). A team's chat
  // webhook URLs, an outgoing webhook integration's URL and a push subscription's endpoint are
  // checked by the routes that write them (a SCIM group's delete deletes its team), and single
  // sign-on's issuer calls by the steps that make them: each loaded with its first request. The
  // integration types' catalogue reads the outgoing webhook's vocabulary, not its checks
  // (lib/integrations/outgoing-webhook-checks.ts): not in the inbound function or the ingest worker.
  'ipaddr.js': ['imports', 'webhookWorker'],
  // With the first webhook of an integration that has a wrapper_key (lib/integrations/adapters/index.ts).
  jmespath: [],
  // With the first log line (lib/log.ts): most invocations write none.
  '@aws-lambda-powertools/logger': [],
};

/**
 * Route handlers a function loads with the first request for their route (a dynamic import in the
 * function's entry), and a worker's rarer message kinds with the first message of their kind: a cold
 * start answering one route does not load the others' use cases. Each module named here is in the
 * function's chunks loaded on first use, and not in what loads at start.
 */
const ROUTES_ON_FIRST_REQUEST: Record<string, string[]> = {
  // An answer may run the broadcast's delivery step (notification rules, content, providers): with the
  // first answer; the reads and writes of broadcasts never deliver (a step runs on the escalation queue).
  broadcasts: [
    'lib/broadcasts/respond-broadcast.ts',
    'lib/broadcasts/deliver-broadcast.ts',
    'lib/rule-engine/query.ts',
    'lib/notify/send.ts',
    // The writes set and clear the broadcast's timers (the SQS client): a read loads none of them.
    'lib/broadcasts/create-broadcast.ts',
    'lib/broadcasts/update-broadcast.ts',
    'lib/broadcasts/delete-broadcast.ts',
    'lib/broadcasts/timers.ts',
    'node_modules/@aws-sdk/client-sqs/dist-es/SQSClient.js',
  ],
  // A team's writes check their chat webhooks' addresses; its current on-call reads the time zones' rules.
  teams: [
    'lib/teams/create-team.ts',
    'lib/teams/update-team.ts',
    'lib/teams/delete-team.ts',
    'lib/teams/read-team-oncall.ts',
    'lib/oncall/time-zones.ts',
  ],
  // The settings' discovery and the callback's token exchange call the issuer (the outbound client).
  sso: ['lib/sso/configure-sso.ts', 'lib/sso/complete-sign-in.ts', 'lib/sso/issuer-calls.ts', 'lib/outbound/http-client.ts'],
  // An answer to a page, an SMS reply and a sender's resolve stop an escalation (no team, nobody paged):
  // who is on call and how people are paged load with the first step that loads a team or a person
  // (lib/escalation/inputs.ts).
  respond: ['lib/oncall/oncall-spans.ts', 'lib/oncall/time-zones.ts', 'lib/escalation/delivery-plan.ts'],
  smsInbound: ['lib/oncall/oncall-spans.ts', 'lib/oncall/time-zones.ts', 'lib/escalation/delivery-plan.ts'],
  ingestWorker: ['lib/oncall/oncall-spans.ts', 'lib/oncall/time-zones.ts'],
  // SCIM's groups (teams, their members and deletes) with the first request for one: users are the common push.
  scim: ['lib/scim/groups.ts', 'lib/teams/delete-team.ts'],
  // A receipt loads the failover's message (and the SQS client) with the first failure it reports.
  deliveryReceipts: ['lib/escalation/failover-signal.ts', 'node_modules/@aws-sdk/client-sqs/dist-es/SQSClient.js'],
  // A heartbeat's beat that ends a miss resolves its alert (the escalation's stop, the rule engine):
  // every other inbound request is stored and queued (lib/integrations/integration-kinds.ts).
  inbound: ['lib/integrations/heartbeats.ts', 'lib/escalation/run-step.ts', 'lib/rule-engine/query.ts'],
  slack: ['lib/slack/commands.ts', 'lib/slack/interactions.ts', 'lib/slack/install.ts', 'lib/slack/connection.ts'],
  public: ['lib/accounts/login.ts', 'lib/accounts/signup.ts', 'lib/accounts/reset-password.ts', 'lib/queues/depths.ts'],
  // Lists, creation, the transitions (with the escalation's stop) and comments: each with its first request.
  alerts: [
    'lib/alerts/list-source.ts',
    'lib/alerts/create-from-request.ts',
    'lib/alerts/create-alert.ts',
    'lib/alert-transitions/act-on-alert.ts',
    'lib/escalation/stop-escalation.ts',
    'lib/alerts/create-comment.ts',
    'lib/alert-transitions/handoff.ts',
  ],
  // A heartbeat's beat (its alert resolved, the escalation stopped) and the integrations' writes.
  integrations: [
    'lib/integrations/ingest/receive-beat.ts',
    'lib/escalation/stop-escalation.ts',
    'lib/integrations/create-integration.ts',
    'lib/integrations/update-integration.ts',
  ],
  // Slack's clicks (and their messages' zod/mini readers) and broadcasts' timers, beside the alerts'
  // timers that most records are; notification rules (their parser and query language) with the first
  // step that loads a person (lib/escalation/inputs.ts): a page by default channels reads none.
  escalationWorker: [
    'lib/slack/run-interaction.ts',
    'lib/slack/interaction-queue.ts',
    'lib/broadcasts/run-broadcast.ts',
    'lib/escalation/delivery-plan.ts',
    'lib/rule-engine/query.ts',
  ],
  // Routers (the rule engine) with the first alert that names one: most go straight to their teams.
  routingWorker: ['lib/rule-engine/query.ts', 'lib/rule-engine/router-chain.ts', 'lib/escalation/delivery-plan.ts'],
  // A broadcast's step with the first broadcast due; notification rules with the first step's people.
  sweeper: ['lib/broadcasts/run-broadcast.ts', 'lib/escalation/delivery-plan.ts', 'lib/rule-engine/query.ts'],
};

/**
 * The functions that do not load zod's classic API when a request arrives: every queue worker, the sweeper, the
 * 404 and the public routes that validate no request with zod (one-click responses, voicemail links,
 * SMS replies, delivery receipts: their response schemas are mini's) read only their configuration
 * and a few messages, with zod/mini (lib/config.ts); the other HTTP functions validate a request's
 * input with it and load it on a request's arrival (infra/bundling.ts, deferClassicZod). The classic
 * API (~96 KiB, ~15 ms of a cold start) stays out of their start, or in a chunk of a path they rarely take: a worker's module that imports an
 * interface's input schemas for one helper puts it back (the helper belongs beside its record:
 * lib/routers/records.ts routerDefinition, lib/teams/records.ts chatWebhooksOf).
 */
const WITHOUT_CLASSIC_ZOD = [
  'notFound',
  'respond',
  'smsInbound',
  'deliveryReceipts',
  'voicemail',
  'routingWorker',
  'escalationWorker',
  'ingestWorker',
  'webhookWorker',
  'sweeper',
];

/** The catalogue's functions, and the SIP media application's (deployed with -c voiceProvider=chime). */
const ENTRIES: Record<string, string> = {
  ...Object.fromEntries(Object.entries(FUNCTIONS).map(([name, definition]) => [name, definition.entry])),
  sipMedia: SIP_MEDIA_FUNCTION.entry,
};
const names = Object.keys(ENTRIES);
const bundles = new Map<string, FunctionBundle>();
const written = mkdtempSync(path.join(tmpdir(), 'oncall-bundles-'));

beforeAll(async () => {
  const built = await Promise.all(names.map((name) => bundleFunction(root, ENTRIES[name])));
  names.forEach((name, i) => bundles.set(name, built[i]));
}, 240_000);

afterAll(() => rmSync(written, { recursive: true, force: true }));

/**
 * Imports a function's bundle in a fresh Node process, as a cold start does, and counts the zod
 * schemas constructed meanwhile through zod's global post-processor hook (every schema zod builds
 * passes it; the bundled zod and the package's read the same global). The same process then builds
 * one schema with the package's zod, so a zod that stopped calling the hook fails here instead of
 * counting nothing.
 */
function schemasBuiltAtImport(name: string): { atImport: number; probe: number } {
  const folder = path.join(written, name);
  for (const file of bundles.get(name)!.files) {
    mkdirSync(path.dirname(path.join(folder, file.path)), { recursive: true });
    writeFileSync(path.join(folder, file.path), file.contents);
  }
  const script = [
    'let built = 0;',
    'globalThis.__zod_globalConfig = { postProcessor: () => { built++; } };',
    `await import(${JSON.stringify(pathToFileURL(path.join(folder, 'index.mjs')).href)});`,
    'const atImport = built;',
    `const z = await import(${JSON.stringify(pathToFileURL(path.join(root, 'node_modules/zod/index.js')).href)});`,
    'z.string();',
    'console.log(JSON.stringify({ atImport, probe: built - atImport }));',
  ].join('\n');
  const printed = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, AWS_REGION: 'us-east-1', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  });
  return JSON.parse(printed.toString()) as { atImport: number; probe: number };
}

describe("every function's bundle", () => {
  it(`loads at most ${BUDGET_KIB} KiB at start, and holds at most ${ALL_CODE_KIB} KiB in all`, () => {
    const kib = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
    const over = names.filter((name) => kib(bundles.get(name)!.bytes) > BUDGET_KIB).map((name) => [name, kib(bundles.get(name)!.bytes)]);
    expect(over, 'bundles over the budget at start (KiB)').toEqual([]);
    const heavy = names
      .map((name) => [name, kib(bundles.get(name)!.bytes + bundles.get(name)!.lazyBytes)] as const)
      .filter(([, total]) => total > ALL_CODE_KIB);
    expect(heavy, 'bundles over the ceiling in all (KiB)').toEqual([]);
  });

  // esbuild splits what a start shares with lazy parts into one chunk per set of parts reaching it
  // (public's and the sweeper's starts were 22 files, ~0.45 ms each beside their bytes): every lazy
  // part, ours or a package's, reaches the whole start (infra/bundling.ts, oneStartChunk), so a start
  // is index.mjs and one chunk.
  it('loads its start from 2 files', () => {
    const many = names.filter((name) => bundles.get(name)!.startFiles > 2).map((name) => [name, bundles.get(name)!.startFiles]);
    expect(many, 'functions whose start is more files').toEqual([]);
  });

  // A deployed function has no node_modules: a package left out of its bundle and imported statically
  // by any of its files fails that file's load (the voicemail link's S3 client imported the SDK's
  // event-stream codec, left out, statically: the link answered 500 when deployed).
  it('imports no left-out package statically, at start or in a chunk', () => {
    const missing = names.flatMap((name) => bundles.get(name)!.staticExternals.map((edge) => `${name}: ${edge}`));
    expect(missing).toEqual([]);
  });

  // @middy/core's response streaming imports node:stream/web (2.6 ms of a cold start) for nothing we
  // use: the bundles carry a cut of it (infra/bundled/middy-core.ts, test/infra/bundled-middy.test.ts).
  it('loads no web streams at start, and carries @middy/core as its cut', () => {
    expect(names.filter((name) => bundles.get(name)!.startBuiltins.includes('node:stream/web'))).toEqual([]);
    const real = names.filter((name) => {
      const { inputs, lazyInputs } = bundles.get(name)!;
      return [...Object.keys(inputs), ...Object.keys(lazyInputs)].some((input) => packageOf(input) === '@middy/core');
    });
    expect(real).toEqual([]);
    expect(names.filter((name) => 'infra/bundled/middy-core.ts' in bundles.get(name)!.inputs).length).toBeGreaterThan(20);
  });

  it.each(Object.entries(HEAVY_PACKAGES))('holds %s only where it runs', (pkg, allowed) => {
    const holding = names.filter((name) => {
      const { inputs, lazyInputs } = bundles.get(name)!;
      return [...Object.keys(inputs), ...Object.keys(lazyInputs)].some((input) => packageOf(input) === pkg);
    });
    expect(holding.sort()).toEqual([...allowed].sort());
  });

  it("loads zod's classic API at start in none of the catalogue's functions", () => {
    const classic = (input: string) => input.startsWith('node_modules/zod/v4/classic/');
    const withClassicAtStart = names.filter((name) => Object.keys(bundles.get(name)!.inputs).some(classic));
    // The SIP media application's function (not an HTTP function, deployed with -c voiceProvider=chime) keeps it.
    expect(withClassicAtStart).toEqual(['sipMedia']);
    // The HTTP functions that validate requests with it load it in a chunk of its own, which their
    // handler starts loading when a request arrives (infra/bundling.ts, deferClassicZod).
    const deferred = names.filter((name) => deferClassicZod(ENTRIES[name]));
    expect(deferred.sort()).toEqual(names.filter((name) => name !== 'sipMedia' && !WITHOUT_CLASSIC_ZOD.includes(name)).sort());
    for (const name of deferred) {
      expect(Object.keys(bundles.get(name)!.lazyInputs).some(classic), name).toBe(true);
      expect(Object.keys(bundles.get(name)!.lazyInputs), name).toContain('infra/bundled/zod-classic.ts');
    }
    // The others are the functions whose zod/mini is built apart, as the deferred ones' is too, and what
    // any of them keeps of zod at start is that module alone: no module of zod's core, which code
    // splitting put in the escalation worker's start whole (82 KiB) because its lazy Slack path loads
    // the classic API.
    expect([...ZOD_MINI_APART_ENTRIES].sort()).toEqual(WITHOUT_CLASSIC_ZOD.map((name) => ENTRIES[name]).sort());
    const apart = path.relative(root, zodMiniOnItsOwn());
    for (const name of [...WITHOUT_CLASSIC_ZOD, ...deferred]) {
      const atStart = Object.keys(bundles.get(name)!.inputs);
      expect(
        atStart.filter((input) => packageOf(input) === 'zod'),
        name,
      ).toEqual([]);
      expect((bundles.get(name)!.inputs[apart] ?? 0) / 1024, name).toBeLessThan(30);
    }
    // The configuration is validated without zod (lib/config.ts), and the OpenAPI document's names and
    // lazy schemas' registry need none at start: mini's builders are at start (more than a stray
    // KiB of them) only where a start reads with them, response links, SMS replies, delivery
    // receipts (the Slack work messages' readers load with the first such message).
    const withMini = names.filter((name) => (bundles.get(name)!.inputs[apart] ?? 0) > 1024);
    expect(withMini.sort()).toEqual(['deliveryReceipts', 'respond', 'smsInbound']);
  });

  it.each(Object.entries(ON_FIRST_USE))('loads %s on first use, at start only in %j', (pkg, allowed) => {
    const atStart = names.filter((name) => Object.keys(bundles.get(name)!.inputs).some((input) => packageOf(input) === pkg));
    expect(atStart.sort()).toEqual([...allowed].sort());
  });

  it.each(Object.entries(ROUTES_ON_FIRST_REQUEST))("%s loads each route's use case with its first request", (name, modules) => {
    const { inputs, lazyInputs } = bundles.get(name)!;
    expect(modules.filter((module) => module in inputs)).toEqual([]);
    expect(modules.filter((module) => !(module in lazyInputs))).toEqual([]);
  });

  // A schema is built by the first request that reads it (lib/lazy-schema.ts): importing a function
  // builds none, so its cold start does not pay for every route's inputs and representations.
  it.each(names)('%s builds no zod schema when it is imported', (name) => {
    const { atImport, probe } = schemasBuiltAtImport(name);
    expect(probe, "zod's post-processor hook counts what it builds").toBe(1);
    expect(atImport, 'zod schemas built at import').toBe(0);
  });
});
