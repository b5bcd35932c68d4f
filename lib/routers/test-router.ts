// POST /api/v4/routers/:id/test {alert, log?}: a dry run that explains (lib/rule-engine explainRouter):
// the rule that matched with each of its conditions, whether it held and the value it saw; the rules
// tried before it with the first condition that failed in each; the actions that would run with their
// values resolved (templates rendered) and the receivers. Nothing is stored, sent or run.
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { clock } from '../clock';
import { alertForRules } from '../notification-rules/test-notification-rule';
import { buildRoutingContext, explainRouter } from '../rule-engine';
import { findRouter } from './read-routers';
import { routerDefinition } from './records';
import { routerTestInput } from './schemas';
import { whenLoaded } from '../on-first-use';

export async function testRouter(principal: Principal, rawId: string, body: unknown) {
  const record = await findRouter(principal, rawId);
  const input = parseInput(routerTestInput, body);
  const context = buildRoutingContext({
    alert: alertForRules(input.alert),
    log: input.log ? { data: input.log.data, headers: input.log.headers ?? {} } : null,
  });
  const now = clock.now();
  return whenLoaded(() => explainRouter(routerDefinition(record), context, now));
}
