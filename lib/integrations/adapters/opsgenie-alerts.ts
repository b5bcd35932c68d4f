// Opsgenie's Alert API (docs/api.md#opsgenie-alert-api-drop-in): a create makes an alert named by its
// alias; close and acknowledge act on the alert the path names (our id, the alias, or the tiny id);
// the message and description updates Alertmanager sends with update_alerts are accepted and not
// applied. Everything the create says beyond message and description is kept on the alert. The
// verb and identifier come from the drop-in's route, stored with the request; a request without one
// (POST /integration/:id of an `opsgenie` integration) is a create.
import { ignore, type AdaptContext, type PayloadAdapter } from './adapter';
import { alertFields, fallbackTitle, isRecord, longText, requireObject, stringList, text, type Payload } from './fields';
import { checkOpsgenieTarget, OPSGENIE_VERBS, priorityOf, type OpsgeniePriority, type OpsgenieVerb } from './opsgenie-alert-rules';
import { datum, details, type Datum } from './sender-details';
import { UnreadablePayload, type AdapterAction, type Urgency } from './types';

/** P1 pages as critical and P2 as high; P3, Opsgenie's default, is medium; P4 and P5 are low. */
export const PRIORITY_URGENCY: Record<OpsgeniePriority, Urgency> = { P1: 'critical', P2: 'high', P3: 'medium', P4: 'low', P5: 'low' };

export const opsgenieAlertsAdapter: PayloadAdapter = {
  accepts: { form: false, text: false },

  adapt(payload, ctx) {
    const route = routeOf(ctx);
    if (route.verb === 'create') return [create(requireObject(payload, 'an Opsgenie create-alert request'), ctx)];
    if (route.verb === 'message' || route.verb === 'description') {
      return [ignore(`Opsgenie ${route.verb} update accepted and not applied (the alert keeps its create's ${route.verb})`)];
    }
    const action = route.verb === 'close' ? 'resolve' : 'acknowledge';
    const checked = checkOpsgenieTarget(route.identifier, route.identifierType);
    if (!checked.target) throw new UnreadablePayload(`the stored route names no alert: ${Object.values(checked.faults).join('; ')}`);
    const { identifier, identifierType } = checked.target;
    switch (identifierType) {
      case 'alias':
        return [{ action, thirdpartyId: identifier }];
      case 'tiny':
        return [{ action, alertRef: { by: 'tiny', tinyId: Number(identifier) } }];
      case 'id':
        return [{ action, alertRef: { by: 'id', id: identifier.trim() } }];
    }
  },
};

type Route = { verb: 'create' } | { verb: Exclude<OpsgenieVerb, 'create'>; identifier: string; identifierType: string | null };

/** `/v2/alerts` or `/v2/alerts/{identifier}/{verb}` (the identifier percent-encoded), as the drop-in stored it. */
function routeOf(ctx: AdaptContext): Route {
  if (!ctx.route) return { verb: 'create' };
  const parts = ctx.route.path.split('/').filter((part) => part !== '');
  if (parts.length === 2) return { verb: 'create' };
  const verb = OPSGENIE_VERBS.find((known) => known !== 'create' && known === parts[3]);
  if (parts.length !== 4 || !verb || verb === 'create') throw new UnreadablePayload(`not an Opsgenie alert route: ${ctx.route.path}`);
  let identifier: string;
  try {
    identifier = decodeURIComponent(parts[2]);
  } catch {
    throw new UnreadablePayload(`the identifier in ${ctx.route.path} is not percent-encoded correctly`);
  }
  return { verb, identifier, identifierType: new URLSearchParams(ctx.route.query).get('identifierType') };
}

function create(body: Payload, ctx: AdaptContext): AdapterAction {
  const description = longText(body.description);
  const priority = priorityOf(body.priority);
  return {
    action: 'create',
    thirdpartyId: text(body.alias) ?? ctx.fallbackId,
    alert: alertFields({
      title: text(body.message) ?? fallbackTitle(description),
      description,
      // No priority: the integration's own urgency, the default of its alerts.
      urgency: priority ? PRIORITY_URGENCY[priority] : ctx.urgency,
      tags: stringList(body.tags),
      additionalData: senderDetails(body, priority),
    }),
  };
}

/** What the create says besides message, description and tags: one entry per detail, then the rest. */
function senderDetails(body: Payload, priority: OpsgeniePriority | undefined): Datum[] {
  const own = isRecord(body.details) ? Object.entries(body.details).map(([key, value]) => datum(`details.${key}`, value)) : [];
  return details([
    datum('priority', priority),
    datum('alias', text(body.alias)),
    datum('entity', text(body.entity)),
    datum('source', text(body.source)),
    datum('user', text(body.user)),
    datum('note', longText(body.note)),
    ...own,
    datum('actions', stringList(body.actions)),
    datum('responders', Array.isArray(body.responders) ? body.responders : undefined),
    datum('visibleTo', Array.isArray(body.visibleTo) ? body.visibleTo : undefined),
  ]);
}
