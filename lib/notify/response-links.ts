// One-click response links (docs/api.md#escalation-and-notifications, issue 12): `<CONSOLE_URL>/public/respond/<token>` (the
// address e-mailed links use, which serves the API too; else PUBLIC_BASE_URL), the
// token signed with RESPONSE_TOKEN_SECRET, else with a secret generated once and kept in the table
// (like the JWT secret), valid 24 hours, naming one person's workflow of one alert and one action.
import { randomBytes } from 'node:crypto';
import { now } from '../clock';
import { config } from '../config';
import { onEnvironmentChange } from '../dependencies';
import { logger } from '../log';
import { responseLink, signResponseToken, verifyResponseToken, type ResponseAction, type VerifyResult } from './content/response-token';
import { getStoredResponseSecret, insertResponseSecret } from './store';

let secret: string | undefined;
// Another table (the local runtime, tests) has a secret of its own.
onEnvironmentChange(() => {
  secret = undefined;
});

/** The secret one-click links are signed with; voicemail links (lib/voice-calls) are signed with it too. */
export async function responseSecret(): Promise<string> {
  if (secret) return secret;
  const configured = config().RESPONSE_TOKEN_SECRET;
  if (configured) return (secret = configured);
  const stored = await getStoredResponseSecret();
  if (stored) return (secret = stored);
  const fresh = randomBytes(32).toString('base64url');
  if (await insertResponseSecret(fresh)) return (secret = fresh);
  return (secret = (await getStoredResponseSecret())!);
}

let warned = false;

/** The base of links in messages, or null (links are then left out, and that is logged once). */
export function publicBaseUrl(): string | null {
  const base = config().CONSOLE_URL ?? config().PUBLIC_BASE_URL;
  if (base) return base.replace(/\/+$/, '');
  if (!warned) {
    warned = true;
    logger.warn('neither CONSOLE_URL nor PUBLIC_BASE_URL is set: messages go out without one-click response links');
  }
  return null;
}

export interface ResponseTarget {
  accountId: string;
  alertId: string;
  workflowId: string;
  accountUserId: string;
}

/** Both links of one page; null ones when no base URL is configured. */
export async function responseLinks(target: ResponseTarget): Promise<{ acknowledge: string | null; reject: string | null }> {
  const base = publicBaseUrl();
  if (!base) return { acknowledge: null, reject: null };
  const key = await responseSecret();
  const at = now();
  const link = (action: ResponseAction) => responseLink(base, signResponseToken({ ...target, action }, key, at));
  return { acknowledge: link('acknowledge'), reject: link('reject') };
}

export async function verifyResponse(token: string): Promise<VerifyResult> {
  return verifyResponseToken(token, await responseSecret(), now());
}

/** A link with its token hidden: what a stored message may show (tokens are credentials, docs/api.md#authentication). */
export function redactLink(text: string, link: string | null): string {
  if (!link) return text;
  const at = link.lastIndexOf('/');
  return text.split(link).join(`${link.slice(0, at + 1)}[token]`);
}
