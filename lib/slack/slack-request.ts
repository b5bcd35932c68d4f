// Every request Slack sends (button clicks, slash commands) is checked before anything is done
// (docs/api.md#slack): the timestamp within 5 minutes of the service's clock, then the workspace the
// body names (`team.id` in an interaction's payload, `team_id` in a command), then the signature
// with that workspace's signing secret over the raw body. Anything else is 401 and changes nothing.
import { createHash } from 'node:crypto';
import { now } from '../clock';
import { logger } from '../log';
import { Unauthorized } from '../http/errors';
import { postToResponseUrl, type ResponseUrlMessage } from '../slack-client/methods';
import type { SlackWorkspace } from '../slack-client/records';
import { SlackCallFailed } from '../slack-client/web-api';
import { workspaceByTeam } from '../slack-client/workspace';
import { checkSlackSignature, checkSlackTimestamp } from './signature';

export interface SlackHttpRequest {
  headers: Record<string, string>;
  /** The raw body, exactly as received. */
  body: Buffer;
}

export interface VerifiedSlackRequest {
  workspace: SlackWorkspace;
  form: URLSearchParams;
}

/** Slack's bodies are small; a larger one is not Slack's. */
const MAX_BODY_BYTES = 64 * 1024;

/** The workspace a team id names; a connection whose secrets no longer open cannot check anything: as if unknown. */
async function connectedWorkspace(teamId: string): Promise<SlackWorkspace | null> {
  try {
    return await workspaceByTeam(teamId);
  } catch {
    return null;
  }
}

export async function verifySlackRequest(
  request: SlackHttpRequest,
  teamOf: (form: URLSearchParams) => string | null,
): Promise<VerifiedSlackRequest> {
  const timestamp = request.headers['x-slack-request-timestamp'];
  const time = checkSlackTimestamp(timestamp, now());
  if (time === 'missing') throw new Unauthorized('X-Slack-Request-Timestamp and X-Slack-Signature are required');
  if (time === 'stale') throw new Unauthorized('X-Slack-Request-Timestamp is more than 300 seconds from now');
  if (request.body.length > MAX_BODY_BYTES) throw new Unauthorized('the request is not signed by a connected Slack workspace');
  const form = new URLSearchParams(request.body.toString('utf8'));
  const teamId = teamOf(form);
  const workspace = teamId && /^[TE][A-Z0-9]{2,20}$/.test(teamId) ? await connectedWorkspace(teamId) : null;
  if (!workspace) throw new Unauthorized('the request is not signed by a connected Slack workspace');
  const check = checkSlackSignature({
    signingSecret: workspace.signingSecret,
    timestamp,
    signature: request.headers['x-slack-signature'],
    body: request.body,
    nowMs: now(),
  });
  if (check !== 'valid') throw new Unauthorized('X-Slack-Signature does not match the request');
  return { workspace, form };
}

/**
 * The key of one interaction, `slack:<team>:<Slack's id of it>` (a click's action_ts, a command's
 * trigger_id): the same interaction delivered again has the same key, which the transitions it makes
 * recognise (lib/alert-transitions/request.ts). An id a mark could not hold (too long, or other than
 * printable ASCII) is replaced by its hash.
 */
export function interactionKey(teamId: string, id: string): string {
  if (id.length <= 100 && /^[\x21-\x7e]+$/.test(id)) return `slack:${teamId}:${id}`;
  return `slack:${teamId}:#${createHash('sha256').update(id).digest('base64url')}`;
}

/** How long a request from Slack may take before its answer goes back (Slack gives up after 3 s). */
export const ANSWER_WITHIN_MS = 2_500;

/** `work`'s result, or `meanwhile` once ANSWER_WITHIN_MS has passed (the work goes on; its failure is logged). */
export async function answerInTime<T>(work: Promise<T>, meanwhile: T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(meanwhile), ANSWER_WITHIN_MS);
  });
  work.catch((error: unknown) => logger.error('slack: an interaction failed', { error: error as Error }));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Tells a click's or a command's result through its response_url, when it has one. Slack refusing
 * it (expired, used up, unreachable) is logged, not thrown: the work it tells of is done.
 */
export async function tellThroughResponseUrl(url: string | undefined, message: ResponseUrlMessage): Promise<void> {
  if (!url) return;
  try {
    await postToResponseUrl(url, message);
  } catch (error) {
    if (!(error instanceof SlackCallFailed)) throw error;
    logger.warn('slack: an answer through response_url was not taken', { error: error.message });
  }
}
