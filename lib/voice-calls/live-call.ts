// Live call routing (issue 24, a `live_call` integration): a call to the integration's number opens an
// alert "Call from <caller>" (its urgency and destinations: routed and paged as any alert), says a
// short greeting, then bridges the caller (CallAndBridge) to the first team's on-call person of each
// escalation layer in turn, `ring_seconds` each. Who answers acknowledges the alert, and resolves it
// when the call ends. Nobody answers: the caller leaves a voicemail (RecordAudio to the stack's bucket,
// 2 minutes at most), whose signed link goes into the alert's description; the alert escalates on by
// its pages. During a maintenance window of the integration the caller hears so and no alert opens.
// The call's state between events is its TransactionAttributes; a retried event does the same again
// (the alert's id comes from the call, a transition carries the call's key).
import { createHash } from 'node:crypto';
import { encodeTime } from 'ulid';
import { addressOf } from '../account-users/addresses';
import { acknowledgeAlert } from '../alert-transitions/acknowledge';
import { resolveAlert } from '../alert-transitions/resolve';
import type { TransitionRequest } from '../alert-transitions/request';
import { insertNewAlert } from '../alerts/create-alert';
import type { Actor, AlertRecord } from '../alerts/records';
import { appendToAlertDescription } from '../alerts/update-alert';
import { now as clockNow, timeScale } from '../clock';
import { config } from '../config';
import { StepInputs } from '../escalation/inputs';
import { HttpError } from '../http/errors';
import { findLiveCallNumber } from '../integrations/live-call-store';
import { isLiveCall, ringSecondsOf } from '../integrations/live-calls';
import type { IntegrationRecord } from '../integrations/records';
import { getIntegration } from '../integrations/store';
import { logger } from '../log';
import { activeWindowsOf } from '../maintenance-windows/active-windows';
import { voiceText } from '../notify/content';
import { callAndBridge, hangup, legA, recordAudio, respond, speak, type PstnEvent, type PstnResponse } from './pstn-events';
import { loadOnce } from '../load-once';

const loadVoicemailLink = /* @__PURE__ */ loadOnce(() => import('./voicemail-link'));

export const LIVE_KIND = 'live';
/** The layers rung at most (each one person), and a voicemail's length. */
const MAX_LAYERS = 5;
const VOICEMAIL_SECONDS = 120;
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

interface Target {
  accountUserId: string;
  userId: string;
  phone: string;
}

interface LiveCall {
  accountId: string;
  integrationId: string;
  alertId: string;
  targets: Target[];
  /** The target being rung (or answered). */
  next: number;
  ring: number;
  answered: boolean;
}

const NOT_IN_SERVICE = 'This number is not in service. Goodbye.';

function attributesOf(call: LiveCall): Record<string, string> {
  return {
    kind: LIVE_KIND,
    account_id: call.accountId,
    integration_id: call.integrationId,
    alert_id: call.alertId,
    targets: call.targets.map((t) => [t.accountUserId, t.userId, t.phone].join(',')).join(';'),
    next: String(call.next),
    ring: String(call.ring),
    answered: call.answered ? '1' : '0',
  };
}

function callOf(attributes: Record<string, string> | undefined): LiveCall | null {
  if (attributes?.kind !== LIVE_KIND || !attributes.account_id || !attributes.alert_id || !attributes.integration_id) return null;
  const targets = (attributes.targets ?? '')
    .split(';')
    .filter(Boolean)
    .map((part) => {
      const [accountUserId, userId, phone] = part.split(',');
      return { accountUserId, userId, phone };
    });
  return {
    accountId: attributes.account_id,
    integrationId: attributes.integration_id,
    alertId: attributes.alert_id,
    targets,
    next: Number(attributes.next) || 0,
    ring: Number(attributes.ring) || 20,
    answered: attributes.answered === '1',
  };
}

/** The alert's id, the same for every delivery of the call's first event: its start time and a digest of its transaction. */
function alertIdOf(event: PstnEvent): string {
  const started = Number(legA(event)?.StartTimeInMilliseconds);
  const time = Number.isSafeInteger(started) && started > 0 ? started : clockNow();
  const digest = createHash('sha256').update(event.CallDetails.TransactionId).digest();
  let random = '';
  for (let i = 0; i < 16; i++) random += CROCKFORD[digest[i] % 32];
  return encodeTime(time, 10) + random;
}

const integrationActor = (integration: IntegrationRecord): Actor => ({ type: 'Integration', integrationId: integration.id });
const personOf = (target: Target): TransitionRequest['actor'] => ({
  type: 'AccountUser',
  accountUserId: target.accountUserId,
  userId: target.userId,
});

/** Whom to ring, in order: the first team's on-call person of each layer who has a phone (or the integration's people, one each). */
async function targetsOf(integration: IntegrationRecord, alert: AlertRecord, at: number): Promise<Target[]> {
  const inputs = new StepInputs(integration.account_id, alert, at, timeScale());
  const teamId = integration.team_ids[0];
  let layers: (readonly string[])[];
  if (teamId) {
    await inputs.loadTeams([teamId]);
    const engine = inputs.inputs();
    const policy = engine.team(teamId)?.policy;
    layers = policy
      ? policy.escalation_layers.map((layer) => engine.oncallAt(teamId, layer.layer, at))
      : [engine.oncallAnyLayerAt(teamId, at)];
  } else {
    layers = integration.account_user_ids.map((id) => [id]);
  }
  await inputs.loadAccountUsers(layers.flat());
  const targets: Target[] = [];
  for (const layer of layers) {
    for (const id of layer) {
      const accountUser = inputs.accountUsers.get(id);
      if (!accountUser || accountUser.deactivated_at) continue;
      const { to } = addressOf(accountUser, 'voice');
      if (!to) continue;
      targets.push({ accountUserId: id, userId: accountUser.user_id, phone: to });
      break;
    }
    if (targets.length === MAX_LAYERS) break;
  }
  return targets;
}

async function newInboundCall(event: PstnEvent, callId: string): Promise<PstnResponse> {
  const dialed = legA(event)?.To ?? '';
  const caller = legA(event)?.From || 'an unknown number';
  const bound = dialed ? await findLiveCallNumber(dialed) : null;
  const integration = bound ? await getIntegration(bound.accountId, bound.integrationId) : null;
  if (!integration || !integration.enabled || !isLiveCall(integration) || integration.options.phone_number !== dialed) {
    logger.warn('live call: a call to a number no enabled live_call integration has', { dialed });
    return respond([speak(callId, NOT_IN_SERVICE), hangup(callId)]);
  }
  const at = clockNow();
  if ((await activeWindowsOf(integration.account_id, integration.id, at)).length > 0) {
    return respond([
      speak(callId, voiceText(`${integration.name} is in a maintenance window and takes no calls now. Goodbye.`)),
      hangup(callId),
    ]);
  }
  const { alert } = await insertNewAlert(
    integration.account_id,
    {
      title: `Call from ${caller}`,
      description: `A live call to ${dialed} (${integration.name}).`,
      urgency: integration.urgency,
      destination_team_ids: integration.team_ids,
      destination_router_ids: integration.router_ids,
      destination_account_user_ids: integration.account_user_ids,
      destination_schedule_ids: integration.schedule_ids,
    },
    integrationActor(integration),
    { id: alertIdOf(event) },
  );
  const call: LiveCall = {
    accountId: integration.account_id,
    integrationId: integration.id,
    alertId: alert.id,
    targets: await targetsOf(integration, alert, at),
    next: 0,
    ring: ringSecondsOf(integration),
    answered: false,
  };
  const greeting = speak(callId, voiceText(`You have reached ${integration.name}. Connecting you with the person on call, please hold.`));
  if (call.targets.length === 0) return voicemail(event, call, callId, [greeting]);
  return respond([greeting, callAndBridge(dialed, call.targets[0].phone, call.ring)], attributesOf(call));
}

function voicemail(event: PstnEvent, call: LiveCall, callId: string, before: PstnResponse['Actions'] = []): PstnResponse {
  const bucket = config().VOICEMAIL_BUCKET;
  if (!bucket) return respond([...before, speak(callId, 'Nobody could take your call. The team has been paged. Goodbye.'), hangup(callId)]);
  return respond(
    [
      ...before,
      speak(callId, 'Nobody could take your call. Please leave a message after the tone, then press the pound key.'),
      recordAudio(callId, bucket, `voicemail/${call.accountId}/${call.alertId}/`, VOICEMAIL_SECONDS),
    ],
    attributesOf(call),
  );
}

/** A transition the call asks for, refused quietly when someone else got there first (409) or the alert is gone (404). */
async function transition(run: () => Promise<unknown>, what: string, call: LiveCall): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (!(error instanceof HttpError && (error.status === 409 || error.status === 404))) throw error;
    logger.info(`live call: ${what} refused`, { alertId: call.alertId, reason: error.message });
  }
}

async function bridged(event: PstnEvent, call: LiveCall): Promise<PstnResponse> {
  const target = call.targets[call.next];
  if (!target) return respond([]);
  await transition(
    () =>
      acknowledgeAlert(call.accountId, call.alertId, {
        actor: personOf(target),
        rules: 'v4',
        idempotencyKey: `chime:${event.CallDetails.TransactionId}:answered`,
      }),
    'acknowledge',
    call,
  );
  return respond([], attributesOf({ ...call, answered: true }));
}

async function recorded(event: PstnEvent, call: LiveCall, callId: string): Promise<PstnResponse> {
  const destination = event.ActionData?.RecordingDestination;
  if (destination) {
    const { voicemailLink, VOICEMAIL_LINK_SECONDS } = await loadVoicemailLink();
    const link = await voicemailLink(destination.BucketName, destination.Key);
    const caller = legA(event)?.From ?? 'the caller';
    await appendToAlertDescription(
      call.accountId,
      call.alertId,
      `Voicemail from ${caller} (the link is valid ${VOICEMAIL_LINK_SECONDS / 86_400} days): ${link}`,
      { type: 'Integration', integrationId: call.integrationId },
    );
  }
  return respond([speak(callId, 'Thank you. Your message was passed on. Goodbye.'), hangup(callId)], attributesOf(call));
}

export async function answerLiveCall(event: PstnEvent): Promise<PstnResponse> {
  const callId = legA(event)?.CallId;
  const type = event.InvocationEventType;
  if (type === 'NEW_INBOUND_CALL') return callId ? newInboundCall(event, callId) : respond([]);
  const call = callOf(event.CallDetails.TransactionAttributes);
  if (!call || !callId) {
    // Not a call of ours (no attributes): nothing is ours to do but end it.
    return respond(callId && type !== 'HANGUP' && type !== 'RINGING' ? [hangup(callId)] : []);
  }
  const action = event.ActionData?.Type;
  if (type === 'ACTION_SUCCESSFUL' && action === 'CallAndBridge') return bridged(event, call);
  if (type === 'ACTION_FAILED' && action === 'CallAndBridge') {
    const next = call.next + 1;
    if (next < call.targets.length) {
      return respond([callAndBridge(legA(event)?.To ?? '', call.targets[next].phone, call.ring)], attributesOf({ ...call, next }));
    }
    return voicemail(event, { ...call, next }, callId);
  }
  if (type === 'ACTION_SUCCESSFUL' && action === 'RecordAudio') return recorded(event, call, callId);
  if (type === 'ACTION_FAILED' && action === 'RecordAudio') return respond([speak(callId, 'Goodbye.'), hangup(callId)], attributesOf(call));
  if (type === 'HANGUP') {
    if (call.answered) {
      const target = call.targets[call.next];
      if (target)
        await transition(
          () =>
            resolveAlert(call.accountId, call.alertId, {
              actor: personOf(target),
              rules: 'v4',
              idempotencyKey: `chime:${event.CallDetails.TransactionId}:ended`,
            }),
          'resolve',
          call,
        );
      // The person hung up: the caller's leg ends too.
      if (event.ActionData?.Parameters?.ParticipantTag === 'LEG-B') return respond([hangup(callId)]);
    }
    return respond([]);
  }
  return respond([]);
}
