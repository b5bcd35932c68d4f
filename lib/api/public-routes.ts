// The routes of the `public` function (functions/http/public.ts): health, sign-in, signup, password
// reset and the OpenAPI document, all without credentials.
import * as z from 'zod';
import { lazySchema, lazyStrictObject } from '../lazy-schema';
import {
  loginInput,
  LoginResult,
  passwordResetInput,
  passwordResetRequestInput,
  PasswordResetRequested,
  signupInput,
  SignupResult,
} from '../accounts/schemas';
import { documentNames } from '../http/document-names';
import { jsonObject } from '../http/response-fields';
import { declareRoutes } from '../http/route-contract';

const QueueDepth = lazySchema(() =>
  z.union([
    z.strictObject({ waiting: z.number().int(), in_flight: z.number().int(), dead_letters: z.number().int() }),
    z.strictObject({ error: z.string() }),
  ]),
);
const Unreadable = lazyStrictObject(() => ({ error: z.string() }));
const OldestPendingWebhook = lazySchema(() =>
  z.union([z.strictObject({ received_at: z.iso.datetime(), age_seconds: z.number() }), z.null(), Unreadable]),
);
const OldestOverdueStep = lazySchema(() =>
  z.union([
    z.strictObject({
      due_at: z.iso.datetime(),
      overdue_seconds: z.number(),
      kind: z.enum(['escalation', 'notification_flush', 'heartbeat', 'broadcast', 'slack_message', 'audit_event']),
    }),
    z.null(),
    Unreadable,
  ]),
);
/** `ok` while every queue and the table can be read (`degraded` otherwise), each queue's depth, and what waits longest. */
export const Health = lazyStrictObject(() => ({
  status: z.enum(['ok', 'degraded']),
  queues: z.record(z.string(), QueueDepth),
  oldest_pending_webhook: OldestPendingWebhook,
  oldest_overdue_step: OldestOverdueStep,
}));

/** The OpenAPI document itself (GET /api/v4/openapi.json). */
export const OpenApiDocument = lazySchema(() => z.looseObject({ openapi: z.string(), info: jsonObject, paths: jsonObject }));

documentNames.add(Health, { id: 'Health' });
documentNames.add(OpenApiDocument, { id: 'OpenApiDocument' });

export const publicRoutes = declareRoutes('public', {
  health: {
    method: 'GET',
    path: '/health',
    public: true,
    summary: 'Health check',
    description:
      'No credentials. `status` is `ok` while every queue and the table can be read (`degraded` otherwise); `queues` gives each queue its waiting and in-flight messages and the messages resting in its dead-letter queue (any dead letter needs someone’s eyes; the stack alarms on it too). `oldest_pending_webhook` is the oldest inbound webhook accepted (202) and not yet processed (its `received_at` and `age_seconds`), null when none waits; `oldest_overdue_step` is the earliest escalation step or notification flush whose due time passed (`due_at`, `overdue_seconds`, `kind`), null when none; either is `{error}` when it cannot be read. Read at most every 5 seconds.',
    tag: 'Platform',
    success: [{ status: 200, description: 'The service answers, with its queue depths', schema: Health }],
    errors: [],
  },
  login: {
    method: 'POST',
    path: '/public/login',
    public: true,
    summary: 'Sign in',
    description:
      "username is any of the user's e-mail addresses; account_id picks the account when the user belongs to several. Answers a JWT that names the user and the account and expires (12 h by default). 403 when the account enforces single sign-on and the account user is not an admin.",
    tag: 'Platform',
    body: loginInput,
    success: [{ status: 200, description: 'A login token', schema: LoginResult }],
    errors: [400, 401, 403, 413],
  },
  signup: {
    method: 'POST',
    path: '/public/signup',
    public: true,
    summary: 'Create an account and its admin',
    description: 'Only when the deployment enables signup (SIGNUP_ENABLED=true); otherwise 404.',
    tag: 'Platform',
    body: signupInput,
    success: [{ status: 201, description: 'A login token for the new admin, and the new account', schema: SignupResult }],
    errors: [400, 404, 409, 413],
  },
  requestPasswordReset: {
    method: 'POST',
    path: '/public/password_reset',
    public: true,
    summary: 'Ask for a password reset link',
    description:
      'Answers 202 with the same body whether or not the address belongs to a user, and takes as long either way. A known address gets an e-mail (through the outbox) with a link to the console carrying a one-time token valid for 1 hour. Limited per e-mail address and per source address in 15-minute windows (429 with Retry-After).',
    tag: 'Platform',
    body: passwordResetRequestInput,
    success: [{ status: 202, description: 'Accepted; a link was sent if the address is known', schema: PasswordResetRequested }],
    errors: [400, 413, 422, 429],
  },
  resetPassword: {
    method: 'POST',
    path: '/public/password_reset/{token}',
    public: true,
    summary: 'Choose a new password with a reset token',
    description:
      'The token from the e-mailed link. Sets the password (at least 8 characters, else 422 naming password, and the token stays usable) and spends the token. An unknown, expired or spent token, or one sent before a later password change, is a 404. Login tokens issued before are refused from then on (401); API keys keep working.',
    tag: 'Platform',
    body: passwordResetInput,
    success: [{ status: 204, description: 'The password is set; sign in with it' }],
    errors: [400, 404, 409, 413, 422],
  },
  openapi: {
    method: 'GET',
    path: '/api/v4/openapi.json',
    public: true,
    summary: 'This OpenAPI document',
    description: 'Generated from the zod schemas and the route table; no credentials needed.',
    tag: 'Platform',
    success: [{ status: 200, description: 'The OpenAPI 3.1 document', schema: OpenApiDocument }],
    errors: [],
  },
});
