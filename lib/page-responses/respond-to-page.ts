// One-click responses from a page (issue 12): GET /public/respond/<token> says what the click will
// do, POST does it. The signed token is the credential: valid 24 hours, for one person's workflow
// of one alert and one action. A malformed, tampered or foreign token is not valid (404), an expired
// one is gone (410), and one whose action was already taken (a replay, or the page was answered
// otherwise) changes nothing (409). The action is the alert's transition (lib/alert-transitions),
// under the v4 rules: a click is a request of its own, an SMS reply names itself by its message id.
import { getAccountUser } from '../account-users/store';
import type { AccountUserRecord } from '../account-users/records';
import { ACKNOWLEDGE, acknowledgeAlert } from '../alert-transitions/acknowledge';
import { rejectAlert } from '../alert-transitions/reject';
import { appliedBefore } from '../alert-transitions/repeats';
import type { TransitionRequest } from '../alert-transitions/request';
import type { AlertRecord } from '../alerts/records';
import { getAlert } from '../alerts/store';
import { pageWorkflow } from '../escalation/reject-workflows';
import { HttpError } from '../http/errors';
import { logger } from '../log';
import { verifyResponse } from '../notify/response-links';
import type { ResponseAction, ResponseClaims } from '../notify/content';

export interface ResponseView {
  status: 200 | 404 | 409 | 410;
  /** What the page says, one line. */
  title: string;
  detail: string;
  /** GET: the action the button performs; null when nothing can be done. */
  action: ResponseAction | null;
  alert: { id: string; tiny_id: number; title: string; urgency: string; status: string } | null;
}

const INVALID: ResponseView = {
  status: 404,
  title: 'This link is not valid',
  detail: 'It may be incomplete, or it was not made for you. Open the alert in the app instead.',
  action: null,
  alert: null,
};

/** One person's answer to one page of theirs: a one-click link's claims, or an SMS reply (lib/sms-replies). */
export type PageResponse = Pick<ResponseClaims, 'accountId' | 'alertId' | 'workflowId' | 'accountUserId' | 'action'> &
  Pick<TransitionRequest, 'idempotencyKey'>;

interface Checked {
  claims: PageResponse;
  alert: AlertRecord;
  accountUser: AccountUserRecord;
  /** The page's workflow as the escalation holds it (null: a link without one, or its step moved on). */
  workflow: Awaited<ReturnType<typeof pageWorkflow>>;
}

async function check(token: string): Promise<Checked | ResponseView> {
  const verified = await verifyResponse(token);
  if (!verified.ok) {
    if (verified.reason === 'expired')
      return {
        ...INVALID,
        status: 410,
        title: 'This link has expired',
        detail: 'Response links are valid for 24 hours. Open the alert in the app instead.',
      };
    return INVALID;
  }
  return checkTarget(verified.claims);
}

/** The page a response names: its alert, its person, and the workflow that is theirs for that alert. */
async function checkTarget(claims: PageResponse): Promise<Checked | ResponseView> {
  const [alert, accountUser] = await Promise.all([
    getAlert(claims.accountId, claims.alertId),
    getAccountUser(claims.accountId, claims.accountUserId),
  ]);
  if (!alert || !accountUser) return INVALID;
  if (claims.workflowId === 'none') return claims.action === 'acknowledge' ? { claims, alert, accountUser, workflow: null } : INVALID;
  // The signed claims name the page; the escalation holds its workflow while its step lasts.
  const workflow = await pageWorkflow(claims.accountId, claims.alertId, claims.workflowId);
  if (workflow && workflow.accountUserId !== accountUser.id) return INVALID;
  return { claims, alert, accountUser, workflow };
}

function summary(alert: AlertRecord): NonNullable<ResponseView['alert']> {
  return { id: alert.id, tiny_id: alert.tiny_id, title: alert.title, urgency: alert.urgency, status: alert.status };
}

function possible(checked: Checked): ResponseView {
  const { claims, alert } = checked;
  const name = `alert #${alert.tiny_id}`;
  if (claims.action === 'acknowledge') {
    const from = ACKNOWLEDGE.from.v4 ?? [];
    if (!from.includes(alert.status)) {
      return {
        status: 409,
        title: `Nothing to do: ${name} is ${alert.status}`,
        detail: 'Nothing was changed.',
        action: null,
        alert: summary(alert),
      };
    }
    return {
      status: 200,
      title: `Acknowledge ${name}?`,
      detail: 'Acknowledging stops its escalation: nobody else is paged.',
      action: 'acknowledge',
      alert: summary(alert),
    };
  }
  const { workflow } = checked;
  if (alert.status !== 'open' || workflow?.status !== 'open') {
    const why =
      alert.status !== 'open'
        ? `${name} is ${alert.status}`
        : `your page for ${name} was already answered (${workflow?.status ?? 'closed'})`;
    return { status: 409, title: `Nothing to do: ${why}`, detail: 'Nothing was changed.', action: null, alert: summary(alert) };
  }
  return {
    status: 200,
    title: `Reject ${name}?`,
    detail: 'Rejecting passes it on to the next people at once.',
    action: 'reject',
    alert: summary(alert),
  };
}

/** GET: what the click will do (nothing changes). */
export async function describeResponse(token: string): Promise<ResponseView> {
  const checked = await check(token);
  return 'status' in checked ? checked : possible(checked);
}

/** POST: does it, once. */
export async function performResponse(token: string): Promise<ResponseView> {
  const checked = await check(token);
  return 'status' in checked ? checked : act(checked);
}

/**
 * The same answer without a link: an SMS reply from the person's phone (lib/sms-replies), once its
 * sender was matched to this person and this page. The same checks and the same effects as a click.
 */
export async function respondToPage(response: PageResponse): Promise<ResponseView> {
  const checked = await checkTarget(response);
  return 'status' in checked ? checked : act(checked);
}

async function act(checked: Checked): Promise<ResponseView> {
  const { claims, accountUser } = checked;
  // The same request delivered again (an SMS reply SNS sends twice) is answered as the first was.
  const repeated = claims.idempotencyKey !== undefined && (await appliedBefore(checked.alert, claims.action, claims.idempotencyKey));
  if (!repeated) {
    const view = possible(checked);
    if (view.status !== 200) return view;
  }
  const request: TransitionRequest = {
    actor: { type: 'AccountUser', accountUserId: accountUser.id, userId: accountUser.user_id },
    rules: 'v4',
    idempotencyKey: claims.idempotencyKey,
  };
  try {
    const after =
      claims.action === 'acknowledge'
        ? await acknowledgeAlert(claims.accountId, claims.alertId, request)
        : await rejectAlert(claims.accountId, claims.alertId, { ...request, onlyWorkflowId: claims.workflowId });
    const done = claims.action === 'acknowledge' ? 'acknowledged' : 'rejected';
    return {
      status: 200,
      title: `Alert #${after.tiny_id} ${done}`,
      detail: done === 'acknowledged' ? 'Its escalation stopped.' : `It went on to the next people; the alert is ${after.status}.`,
      action: null,
      alert: summary(after),
    };
  } catch (error) {
    if (error instanceof HttpError && (error.status === 409 || error.status === 404)) {
      logger.info('one-click response refused', { action: claims.action, alertId: claims.alertId, reason: error.message });
      return {
        status: 409,
        title: 'Nothing was changed',
        detail: error.message,
        action: null,
        alert: summary((await getAlert(claims.accountId, claims.alertId)) ?? checked.alert),
      };
    }
    throw error;
  }
}
