// Every function's bundle as the stack builds it (infra/bundling.ts, esbuild's metafile read by
// infra/bundle-analysis.ts): what a cold start loads within budget, each heavy package only in the
// functions that run it, and the packages of rare paths only in the chunks loaded on first use
// (issue 21: code a function does not run is not in its bundle). The expectations are
// written out here, not derived from the catalogue: a bundle that grows, or a heavy package that
// reaches one more function, fails this test and has to be argued for in the change that does it.
// `npx tsx bench/bundle-report.ts <function>` shows what a bundle holds and which import brings it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleFunction, packageOf, type FunctionBundle } from '../../infra/bundle-analysis';
import { FUNCTIONS } from '../../infra/functions';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The target of issue 21 for every function's code. */
const BUDGET_KIB = 600;

/**
 * Everything a function can ever load (at start and on first use) stays within this ceiling: a lazy
 * chunk does not grow unnoticed either. The largest today is the routing worker's, 1 012 KiB (it
 * routes, runs automations and pages): the ceiling may only come down.
 */
const ALL_CODE_KIB = 1030;

const PAGING = ['broadcasts', 'smsInbound', 'routingWorker', 'escalationWorker', 'sweeper'];
/** Slack's interactions and /oncall: it sends nothing itself (clicks are run by the escalation worker), but matches rules through /oncall page. */
const SLACK = ['slack'];
const RULE_EDITORS = ['routers', 'notificationRules', 'automations'];
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
  // Regular expressions of rules, evaluated where alerts are routed or paged, checked where rules are edited.
  re2js: [...PAGING, ...SLACK, ...RULE_EDITORS, 'alerts', 'respond'],
  yaml: [...PAGING, ...SLACK, ...RULE_EDITORS, 'alerts', 'respond'],
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
 * $regex; YAML with the first rule text read (the automations function reads settings in every
 * representation, so it loads YAML at start); Handlebars with the first account template; the
 * phone metadata with the first phone number written; JOSE with the first single sign-on callback.
 */
const ON_FIRST_USE: Record<string, string[]> = {
  '@aws-sdk/client-sesv2': [],
  '@aws-sdk/client-pinpoint-sms-voice-v2': [],
  re2js: [],
  yaml: ['automations'],
  handlebars: [],
  'libphonenumber-js': [],
  jose: [],
};

const names = Object.keys(FUNCTIONS);
const bundles = new Map<string, FunctionBundle>();

beforeAll(async () => {
  const built = await Promise.all(names.map((name) => bundleFunction(root, FUNCTIONS[name as keyof typeof FUNCTIONS].entry)));
  names.forEach((name, i) => bundles.set(name, built[i]));
}, 240_000);

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

  it.each(Object.entries(HEAVY_PACKAGES))('holds %s only where it runs', (pkg, allowed) => {
    const holding = names.filter((name) => {
      const { inputs, lazyInputs } = bundles.get(name)!;
      return [...Object.keys(inputs), ...Object.keys(lazyInputs)].some((input) => packageOf(input) === pkg);
    });
    expect(holding.sort()).toEqual([...allowed].sort());
  });

  it.each(Object.entries(ON_FIRST_USE))('loads %s on first use, at start only in %j', (pkg, allowed) => {
    const atStart = names.filter((name) => Object.keys(bundles.get(name)!.inputs).some((input) => packageOf(input) === pkg));
    expect(atStart.sort()).toEqual([...allowed].sort());
  });
});
