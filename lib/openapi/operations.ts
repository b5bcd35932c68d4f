// What the OpenAPI document says about each route of the route table (infra/routes.ts), keyed like
// API Gateway's route keys ("GET /api/v4/alerts/{id}"): summary, tag, request body, success
// responses and the error statuses the route can answer. test/openapi fails when a route of the
// table has no entry here, or an entry names no route. Prose for clients lives in docs/api.md.
import type * as z from 'zod';
import * as input from './inputs';
import * as rep from './representations';

/** A route's error statuses. `invalid` is a validation failure: 422 under /api/v4, 400 elsewhere;
 * 422 itself is a validation failure that is 422 on every interface (the password routes, docs/api.md#authentication). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 422 | 429 | 502 | 'invalid';

export interface SuccessDoc {
  /** 404/409/410 only where the answer is a page of its own, not an error (one-click responses). */
  status: 200 | 201 | 202 | 204 | 400 | 404 | 409 | 410 | 502;
  /** The body may also be an HTML page (text/html) for a browser. */
  html?: boolean;
  description: string;
  /** The body; absent for 204. */
  schema?: z.ZodType;
}

export interface OperationDoc {
  summary: string;
  description?: string;
  tag: string;
  /** The JSON body the route reads (every entry is also the shape of a form-encoded v4 body). */
  body?: z.ZodType;
  /** Extra fields read beside `body` (shown as allOf). */
  bodyExtra?: z.ZodType;
  /** The v4 create/update convention: the body may also be `application/x-www-form-urlencoded`. */
  form?: boolean;
  /** Any body at all, stored as it came (inbound webhooks). */
  anyBody?: boolean;
  /** The body is application/x-www-form-urlencoded only (what Slack posts). */
  formOnly?: boolean;
  /** A list: the item schema of the envelope; adds the list query parameters. */
  list?: z.ZodType;
  /** Query parameters other than the list conventions. */
  query?: { name: string; required: boolean; description: string; example?: string }[];
  success: SuccessDoc[];
  errors: ErrorStatus[];
  /** Errors answered in a shape of the route's own instead of the error body (PagerDuty's, on
   * /v2/enqueue), with their schema; these statuses are not also in `errors`. */
  ownErrors?: { status: Exclude<ErrorStatus, 'invalid'>; description: string; schema: z.ZodType }[];
  /** No credentials. */
  public?: boolean;
}

export type OperationTable = Record<string, OperationDoc>;

// ---- the statuses of the usual shapes ---------------------------------------------------------

const READ: ErrorStatus[] = [401, 404];
const LIST: ErrorStatus[] = [401, 'invalid'];
const NESTED_LIST: ErrorStatus[] = [401, 404, 'invalid'];
/** A body is read: malformed JSON (400), too large (413), invalid or unknown reference (invalid). */
const BODY: ErrorStatus[] = [400, 413, 'invalid'];

const ADMIN = 'Account admins only (403 otherwise).';
const SCHEDULE_EDITOR = 'Account admins, and the admins of the team whose schedule holds the event (403 otherwise).';

interface ResourceDoc {
  tag: string;
  /** Singular and plural nouns for the summaries. */
  noun: string;
  plural: string;
  item: z.ZodType;
  create?: z.ZodType;
  update?: z.ZodType;
  bodyExtra?: z.ZodType;
  /** Whether create/update bodies may be form-encoded (v4). */
  form: boolean;
  /** Who may write, when not everyone of the account may (a sentence for the descriptions). */
  writers?: { create?: string; update?: string; delete?: string };
  /** Extra error statuses per operation. */
  extra?: Partial<Record<'create' | 'update' | 'delete', ErrorStatus[]>>;
  descriptions?: Partial<Record<'list' | 'create' | 'get' | 'update' | 'delete', string>>;
}

/** The five standard operations on `collection` (api-v4.md "Standard operations"); `only` picks some. */
function resource(collection: string, doc: ResourceDoc, only?: ('list' | 'create' | 'get' | 'update' | 'delete')[]): OperationTable {
  const has = (op: 'list' | 'create' | 'get' | 'update' | 'delete') => !only || only.includes(op);
  const forbidden = (op: 'create' | 'update' | 'delete'): ErrorStatus[] => (doc.writers?.[op] ? [403] : []);
  const described = (op: 'list' | 'create' | 'get' | 'update' | 'delete', ...parts: (string | undefined)[]) => {
    const text = [doc.descriptions?.[op], ...parts].filter(Boolean).join(' ');
    return text ? { description: text } : {};
  };
  const table: OperationTable = {};
  if (has('list')) {
    table[`GET ${collection}`] = {
      summary: `List ${doc.plural}`,
      tag: doc.tag,
      ...described('list'),
      list: doc.item,
      success: [{ status: 200, description: `A page of ${doc.plural}` }],
      errors: LIST,
    };
  }
  if (has('create') && doc.create) {
    table[`POST ${collection}`] = {
      summary: `Create ${article(doc.noun)}`,
      tag: doc.tag,
      ...described('create', doc.writers?.create),
      body: doc.create,
      bodyExtra: doc.bodyExtra,
      form: doc.form,
      success: [{ status: 201, description: `The new ${doc.noun}`, schema: doc.item }],
      errors: sorted([401, ...forbidden('create'), ...BODY, ...(doc.extra?.create ?? [])]),
    };
  }
  if (has('get')) {
    table[`GET ${collection}/{id}`] = {
      summary: `Get ${article(doc.noun)}`,
      tag: doc.tag,
      ...described('get'),
      success: [{ status: 200, description: `The ${doc.noun}`, schema: doc.item }],
      errors: READ,
    };
  }
  if (has('update') && doc.update) {
    table[`PUT ${collection}/{id}`] = {
      summary: `Update ${article(doc.noun)}`,
      tag: doc.tag,
      ...described('update', 'Partial: only the fields sent change.', doc.writers?.update),
      body: doc.update,
      bodyExtra: doc.bodyExtra,
      form: doc.form,
      success: [{ status: 200, description: `The updated ${doc.noun}`, schema: doc.item }],
      errors: sorted([401, ...forbidden('update'), 404, 409, ...BODY, ...(doc.extra?.update ?? [])]),
    };
  }
  if (has('delete')) {
    table[`DELETE ${collection}/{id}`] = {
      summary: `Delete ${article(doc.noun)}`,
      tag: doc.tag,
      ...described('delete', doc.writers?.delete),
      success: [{ status: 204, description: 'Deleted; no body' }],
      errors: sorted([401, ...forbidden('delete'), 404, ...(doc.extra?.delete ?? [])]),
    };
  }
  return table;
}

function article(noun: string): string {
  return /^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`;
}

const ORDER: ErrorStatus[] = [400, 401, 403, 404, 405, 409, 413, 'invalid', 429];
function sorted(statuses: ErrorStatus[]): ErrorStatus[] {
  return ORDER.filter((status) => statuses.includes(status));
}

const v4 = '/api/v4';

const ALERT_ACTION = (verb: string, from: string, effect: string): OperationDoc => ({
  summary: `${verb[0].toUpperCase()}${verb.slice(1)} an alert`,
  description: `Allowed from ${from}; any other status is a 409 naming the current one. ${effect} Any body is ignored.`,
  tag: 'Alerts',
  success: [{ status: 200, description: 'The updated alert', schema: rep.AlertV4 }],
  errors: [401, 404, 409],
});

const EARLIER_ALERT_ACTION = (verb: string, from: string, effect: string): OperationDoc => ({
  ...ALERT_ACTION(verb, from, effect),
  tag: 'Alerts (earlier)',
  success: [{ status: 200, description: 'The updated alert', schema: rep.AlertEarlier }],
});

const REJECT =
  'The caller must hold an open notification workflow for the alert (else 409): it closes, and once no other workflow of that step is open the alert escalates to the next layer, staying open (dropped when no layer is left).';

const ONCALL_ENTRIES =
  'One entry per on-call span (an event occurrence, or the piece of one an override leaves, or an override), with its real bounds.';

/** Every route's document entry. */
export const OPERATIONS: OperationTable = {
  // ---- platform ------------------------------------------------------------------------------
  'GET /health': {
    summary: 'Health check',
    description:
      'No credentials. `status` is `ok` while every queue can be read (`degraded` otherwise); `queues` gives each queue its waiting and in-flight messages and the messages resting in its dead-letter queue (any dead letter needs someone’s eyes; the stack alarms on it too). Read at most every 5 seconds.',
    tag: 'Platform',
    public: true,
    success: [{ status: 200, description: 'The service answers, with its queue depths', schema: rep.Health }],
    errors: [],
  },
  'GET /api/v4/openapi.json': {
    summary: 'This OpenAPI document',
    description: 'Generated from the zod schemas and the route table; no credentials needed.',
    tag: 'Platform',
    public: true,
    success: [{ status: 200, description: 'The OpenAPI 3.1 document', schema: rep.OpenApiDocument }],
    errors: [],
  },
  'POST /public/login': {
    summary: 'Sign in',
    description:
      "username is any of the user's e-mail addresses; account_id picks the account when the user belongs to several. Answers a JWT that names the user and the account and expires (12 h by default).",
    tag: 'Platform',
    public: true,
    body: input.loginInput,
    success: [{ status: 200, description: 'A login token', schema: rep.LoginResult }],
    errors: [400, 401, 413],
  },
  'POST /public/signup': {
    summary: 'Create an account and its admin',
    description: 'Only when the deployment enables signup (SIGNUP_ENABLED=true); otherwise 404.',
    tag: 'Platform',
    public: true,
    body: input.signupInput,
    success: [{ status: 201, description: 'A login token for the new admin, and the new account', schema: rep.SignupResult }],
    errors: [400, 404, 409, 413],
  },
  'POST /public/password_reset': {
    summary: 'Ask for a password reset link',
    description:
      'Answers 202 with the same body whether or not the address belongs to a user, and takes as long either way. A known address gets an e-mail (through the outbox) with a link to the console carrying a one-time token valid for 1 hour. Limited per e-mail address and per source address in 15-minute windows (429 with Retry-After).',
    tag: 'Platform',
    public: true,
    body: input.passwordResetRequestInput,
    success: [{ status: 202, description: 'Accepted; a link was sent if the address is known', schema: rep.PasswordResetRequested }],
    errors: [400, 413, 422, 429],
  },
  'POST /public/password_reset/{token}': {
    summary: 'Choose a new password with a reset token',
    description:
      'The token from the e-mailed link. Sets the password (at least 8 characters, else 422 naming password, and the token stays usable) and spends the token. An unknown, expired or spent token, or one sent before a later password change, is a 404. Login tokens issued before are refused from then on (401); API keys keep working.',
    tag: 'Platform',
    public: true,
    body: input.passwordResetInput,
    success: [{ status: 204, description: 'The password is set; sign in with it' }],
    errors: [400, 404, 409, 413, 422],
  },
  'GET /account/{id}': {
    summary: "Get the caller's account",
    description: 'Any other account id is a 404.',
    tag: 'Account',
    success: [{ status: 200, description: 'The account', schema: rep.AccountEarlier }],
    errors: READ,
  },
  'PUT /account/{id}': {
    summary: "Update the caller's account",
    description: `Any other account id is a 404. ${ADMIN}`,
    tag: 'Account',
    body: input.updateAccountInput,
    success: [{ status: 200, description: 'The updated account', schema: rep.AccountEarlier }],
    errors: [400, 401, 403, 404, 409, 413],
  },

  ...resource(
    `${v4}/api_keys`,
    {
      tag: 'API keys',
      noun: 'API key',
      plural: "the caller's API keys",
      item: rep.ApiKeyV4,
      form: true,
      descriptions: {
        list: 'Without secrets.',
        get: "One of the caller's own keys.",
        delete: "Revokes the key at once: the caller's own, or (admins) any key of the account.",
      },
    },
    ['list', 'get', 'delete'],
  ),
  [`POST ${v4}/api_keys`]: {
    summary: 'Create an API key',
    description:
      'The key acts as the caller, or (admins) as the account user named by account_user_id. The token is shown in this response only and stored only as a hash. Naming another account user needs the admin role (403 otherwise).',
    tag: 'API keys',
    body: input.createApiKeyInput,
    form: true,
    success: [{ status: 201, description: 'The new key with its token', schema: rep.ApiKeyCreatedV4 }],
    errors: [400, 401, 403, 413, 'invalid'],
  },

  ...resource(`${v4}/account_users`, {
    tag: 'Account users',
    noun: 'account user',
    plural: 'account users',
    item: rep.AccountUserV4,
    create: input.createAccountUserInput,
    update: input.updateAccountUserInput,
    form: true,
    writers: {
      create: ADMIN,
      update: 'Admins may update anyone; others only themselves, and never roles or team memberships (403).',
      delete: ADMIN,
    },
    extra: { create: [409], update: [409] },
    descriptions: {
      create:
        'A new person gets a generated password through the outbox only. An e-mail address already in the account is a 409. team_ids is another name for member_team_ids.',
      update:
        'roles merges the keys given; user_attributes updates name, notify flags, and e-mails/phones by id (_destroy removes one, an entry without id adds one).',
    },
  }),

  [`POST ${v4}/account_users/{id}/password`]: {
    summary: 'Change your own password',
    description:
      "Only by the account user themselves (anyone else, an admin included, gets 403). A wrong current_password is a 422 naming it; a password shorter than 8 characters a 422 naming password. Login tokens issued before the change are refused from then on (401), the caller's included; API keys keep working. Attempts are limited per person (429 with Retry-After).",
    tag: 'Account users',
    body: input.changePasswordInput,
    success: [{ status: 204, description: 'The password is changed; sign in again for a new login token' }],
    errors: [400, 401, 403, 404, 409, 413, 429, 'invalid'],
  },

  [`GET ${v4}/account_users/{id}/push_subscriptions`]: {
    summary: "A person's browser push subscriptions",
    description: 'By the person themself or an admin (403 otherwise); the keys are never shown. See docs/api.md#push-subscriptions.',
    tag: 'Account users',
    success: [{ status: 200, description: 'Every subscription of the person, oldest first', schema: rep.PushSubscriptionListV4 }],
    errors: [401, 403, 404],
  },
  [`POST ${v4}/account_users/{id}/push_subscriptions`]: {
    summary: 'Register a browser for push notifications',
    description:
      "The body is what the browser's PushSubscription.toJSON() gives: endpoint (https), keys.p256dh (a P-256 public key) and keys.auth (16 bytes), base64url; each is checked (422 naming the field). The same endpoint again replaces the subscription; beyond 10 the oldest is forgotten. A push service that answers 404 or 410 removes it. By the person themself or an admin (403 otherwise). Subscribe with the key of GET /api/v4/web_push.",
    tag: 'Account users',
    body: input.pushSubscriptionInput,
    success: [{ status: 201, description: 'The subscription', schema: rep.PushSubscriptionV4 }],
    errors: [400, 401, 403, 404, 413, 'invalid'],
  },
  [`DELETE ${v4}/account_users/{id}/push_subscriptions`]: {
    summary: "Remove a browser's push subscription by its endpoint",
    description: 'The endpoint query parameter names it (422 when missing, 404 when the person has no such subscription).',
    tag: 'Account users',
    query: [{ name: 'endpoint', required: true, description: "The subscription's endpoint URL" }],
    success: [{ status: 204, description: 'Removed' }],
    errors: [401, 403, 404, 'invalid'],
  },
  [`DELETE ${v4}/account_users/{id}/push_subscriptions/{subscriptionId}`]: {
    summary: 'Remove a push subscription by its id',
    tag: 'Account users',
    success: [{ status: 204, description: 'Removed' }],
    errors: [401, 403, 404],
  },
  [`GET ${v4}/web_push`]: {
    summary: 'The VAPID public key browsers subscribe with',
    description:
      'vapid_public_key is the applicationServerKey of PushManager.subscribe (base64url); enabled says whether pushes go out through Web Push (else the local outbox, or they are recorded failed).',
    tag: 'Account users',
    success: [{ status: 200, description: 'The key', schema: rep.WebPushV4 }],
    errors: [401],
  },

  // ---- alerts, v4 ---------------------------------------------------------------------------
  ...resource(`${v4}/alerts`, {
    tag: 'Alerts',
    noun: 'alert',
    plural: 'alerts',
    item: rep.AlertV4,
    create: input.v4CreateInput,
    update: input.v4UpdateInput,
    form: true,
    descriptions: {
      create:
        'Needs at least one destination. The alert is answered open and handed to routing asynchronously. tags is another name for tag_list; null inside meta unsets a key.',
      list: 'tags filters as tag_list.',
    },
  }),
  [`POST ${v4}/alerts/{id}/acknowledge`]: ALERT_ACTION(
    'acknowledge',
    'open, dropped or suppressed',
    'acknowledged_at is set on the first acknowledgement only.',
  ),
  [`POST ${v4}/alerts/{id}/resolve`]: ALERT_ACTION('resolve', 'open, dropped or acknowledged', 'Sets resolved_at.'),
  [`POST ${v4}/alerts/{id}/reject`]: ALERT_ACTION('reject', 'open', REJECT),
  [`GET ${v4}/alerts/{id}/comments`]: {
    summary: "List an alert's comments",
    tag: 'Alerts',
    list: rep.CommentV4,
    success: [{ status: 200, description: 'A page of comments' }],
    errors: NESTED_LIST,
  },
  [`POST ${v4}/alerts/{id}/comments`]: {
    summary: 'Comment on an alert',
    tag: 'Alerts',
    body: input.commentInput,
    form: true,
    success: [{ status: 201, description: 'The new comment', schema: rep.CommentV4 }],
    errors: [400, 401, 404, 413, 'invalid'],
  },
  [`GET ${v4}/teams/{id}/alerts`]: {
    summary: "List a team's alerts",
    description: 'Alerts sent to the team or assigned to it now.',
    tag: 'Alerts',
    list: rep.AlertV4,
    success: [{ status: 200, description: 'A page of alerts' }],
    errors: NESTED_LIST,
  },

  // ---- alerts, earlier interface ------------------------------------------------------------
  ...resource('/alert', {
    tag: 'Alerts (earlier)',
    noun: 'alert',
    plural: 'alerts',
    item: rep.AlertEarlier,
    create: input.earlierCreateInput,
    update: input.earlierUpdateInput,
    form: false,
    descriptions: {
      create: 'destination_ids: team, user, account user, router or schedule prefix ids. urgency defaults to medium.',
    },
  }),
  'POST /alert/{id}/acknowledge': EARLIER_ALERT_ACTION('acknowledge', 'open or dropped', 'Records the caller as acknowledgedby.'),
  'POST /alert/{id}/reject': EARLIER_ALERT_ACTION('reject', 'open', REJECT),
  'POST /alert/{id}/resolve': EARLIER_ALERT_ACTION('resolve', 'acknowledged', 'Records the caller as resolvedby.'),
  'POST /alert/{id}/archive': EARLIER_ALERT_ACTION('archive', 'resolved or dropped', 'Records the caller as archivedby.'),
  'POST /alert/{id}/handoff': {
    summary: 'Hand an alert off',
    description:
      'Allowed from open or acknowledged (409 otherwise). to is a user (usr_) or team (tem_) id of the account: appends {to, from, time, acknowledged} to handoffs, assigns the alert to it, sets it open (acknowledged stays) and notifies the new assignee.',
    tag: 'Alerts (earlier)',
    body: input.handoffInput,
    success: [{ status: 200, description: 'The updated alert', schema: rep.AlertEarlier }],
    errors: [400, 401, 404, 409, 413],
  },
  // ---- broadcasts, v4 ------------------------------------------------------------------------
  ...resource(`${v4}/broadcasts`, {
    tag: 'Broadcasts',
    noun: 'broadcast',
    plural: 'broadcasts',
    item: rep.BroadcastV4,
    create: input.createBroadcastInput,
    update: input.updateBroadcastInput,
    form: true,
    writers: {
      create: 'Needs the admin or broadcaster role (403 otherwise).',
      update: "Account admins and the broadcast's creator (403 otherwise).",
      delete: "Account admins and the broadcast's creator (403 otherwise).",
    },
    extra: { update: [409] },
    descriptions: {
      create:
        'Needs a title, at least one destination (teams, account users) and, when response_requested is true, at least one entry of broadcast_response_options_attributes; response_requested_by must lie ahead. Answered queued; it is delivered asynchronously (template alert_broadcast) to every member and admin of the teams and every account user, each person once, and becomes open once sent (errored when nothing could be sent). Not an alert: the earlier /broadcast view does not show it.',
      update: 'title, description and tag_list change; status is writable only as closed (from queued or open, else 409).',
      delete: 'Its notifications stay.',
    },
  }),
  [`POST ${v4}/broadcasts/{id}/respond`]: {
    summary: 'Respond to a broadcast',
    description:
      'By an addressee (403 otherwise) of an open broadcast that asks for a response (409 otherwise, and once response_requested_by has passed). One answer per person: a second replaces the first. The option is named by its id; one of another broadcast is a 422. Answers the broadcast with its counts.',
    tag: 'Broadcasts',
    body: input.broadcastRespondInput,
    form: true,
    success: [{ status: 200, description: 'The broadcast, with the answer counted', schema: rep.BroadcastV4 }],
    errors: [400, 401, 403, 404, 409, 413, 'invalid'],
  },
  ...resource(
    '/broadcast',
    {
      tag: 'Broadcasts and incidents (earlier, deprecated)',
      noun: 'broadcast',
      plural: 'broadcasts',
      item: rep.AlertEarlier,
      create: input.viewCreateInput,
      form: false,
      writers: {
        create: 'Needs the admin or broadcaster role (403 otherwise).',
        delete: 'Needs the admin or broadcaster role (403 otherwise).',
      },
      descriptions: {
        list: 'A view of alerts: those of subtype broadcast.',
        create: 'Creates an alert of subtype broadcast; destination_ids names users and teams.',
        get: 'An alert of subtype broadcast; any other alert is a 404.',
      },
    },
    ['list', 'create', 'get', 'delete'],
  ),
  ...resource('/incident', {
    tag: 'Broadcasts and incidents (earlier, deprecated)',
    noun: 'incident',
    plural: 'incidents',
    item: rep.AlertEarlier,
    create: input.viewCreateInput,
    update: input.earlierUpdateInput,
    form: false,
    descriptions: {
      list: 'A view of alerts: those with meta.incident true.',
      create: 'Creates an alert with meta.incident true; destination_ids names users and teams.',
      get: 'An alert with meta.incident true; any other alert is a 404.',
      update: 'meta.incident, meta.incident_severity and meta.incident_message set the incident flags.',
    },
  }),
  'GET /incident/{id}/logs': {
    summary: "List an incident's logs",
    description: "The alert's timeline: one log per change (who, what, when).",
    tag: 'Broadcasts and incidents (earlier, deprecated)',
    list: rep.LogEarlier,
    success: [{ status: 200, description: 'A page of logs' }],
    errors: NESTED_LIST,
  },
  ...resource(
    '/log',
    {
      tag: 'Logs (earlier)',
      noun: 'log',
      plural: 'logs',
      item: rep.LogEarlier,
      create: input.createLogInput,
      form: false,
      descriptions: {
        create: 'owner_id and source_id are prefix ids of objects of the account (400 naming the field otherwise).',
        list: 'Alert timelines and inbound webhook requests (subtype INCOMING, with their processing status) among them. Credential headers of stored requests are redacted.',
      },
    },
    ['list', 'create', 'get'],
  ),

  // ---- notifications (read only) and one-click responses ---------------------------------------
  ...resource(
    `${v4}/notifications`,
    {
      tag: 'Notifications',
      noun: 'notification',
      plural: 'notifications',
      item: rep.NotificationV4,
      form: false,
      descriptions: {
        list: 'Every message sent to a person: pages (alert_alert, alert_handoff), alert_dropped, alert_rejected, event_goc, welcome messages. alert_id and account_user_id filters read their own index. status is queued until the provider answered; a message bundled by storm protection is sent inside another one.',
        get: 'Read only: no route creates, changes or deletes a notification (404).',
      },
    },
    ['list', 'get'],
  ),
  ...resource(
    '/notification',
    {
      tag: 'Notifications (earlier)',
      noun: 'notification',
      plural: 'notifications',
      item: rep.NotificationEarlier,
      form: false,
      descriptions: {
        list: 'user_id is the person (usr_), source_id the alert (alt_), group_id the notification that carried a bundled one (provider_status bundled). alert_id and account_user_id (the v4 names) narrow the list too.',
        get: 'Read only: no route creates, changes or deletes a notification (404).',
      },
    },
    ['list', 'get'],
  ),
  'GET /public/respond/{token}': {
    summary: 'What a one-click response link will do',
    description:
      "The token comes from a page's acknowledge or reject link: valid 24 hours, for that person's workflow only. Nothing changes. Browsers get an HTML page with the button; clients that send Accept: application/json get the JSON. 404: not a valid link; 410: expired; 409: nothing to do (already answered).",
    tag: 'Notifications',
    public: true,
    success: [
      { status: 200, description: 'The action the button performs', schema: rep.ResponseView, html: true },
      { status: 404, description: 'Not a valid link (malformed, tampered, or not for this person)', schema: rep.ResponseView, html: true },
      { status: 409, description: 'Nothing to do: the alert or the page was already answered', schema: rep.ResponseView, html: true },
      { status: 410, description: 'The link expired (24 hours)', schema: rep.ResponseView, html: true },
    ],
    errors: [],
  },
  'POST /public/sms/inbound': {
    summary: 'Inbound SMS: replies to pages (End User Messaging through SNS)',
    description:
      'SNS delivers End User Messaging two-way SMS here over HTTPS. Only messages whose SNS signature verifies and whose TopicArn is SMS_INBOUND_TOPIC_ARN are read (403 otherwise; 404 when it is unset; 503 when the signing certificate cannot be fetched, so SNS delivers again). A SubscriptionConfirmation is confirmed. A reply "A" or "R", with the tiny id when several alerts wait ("A 42"), acknowledges or rejects the sender\'s page; anything else gets a help SMS.',
    tag: 'Notifications',
    public: true,
    anyBody: true,
    success: [{ status: 200, description: 'What was done', schema: rep.InboundSmsResult }],
    errors: [403, 404],
  },
  'POST /public/respond/{token}': {
    summary: 'Acknowledge or reject from a one-click link',
    description:
      'Does what the link names, once: acknowledge stops the escalation, reject passes the alert on to the next layer at once. A replay, or a page already answered, changes nothing (409).',
    tag: 'Notifications',
    public: true,
    success: [
      { status: 200, description: 'Done', schema: rep.ResponseView, html: true },
      { status: 404, description: 'Not a valid link', schema: rep.ResponseView, html: true },
      {
        status: 409,
        description: 'Nothing was changed (a replay, or the page was already answered)',
        schema: rep.ResponseView,
        html: true,
      },
      { status: 410, description: 'The link expired (24 hours)', schema: rep.ResponseView, html: true },
    ],
    errors: [],
  },

  // ---- Slack ----------------------------------------------------------------------------------
  [`PUT ${v4}/slack`]: {
    summary: 'Connect a Slack workspace',
    description:
      "Body: the bot token (xoxb-…) and the app's Signing Secret. The token is checked with Slack's auth.test (refused: 422 naming bot_token; Slack unreachable: 502); the workspace's team_id, team_name and the bot's user id are kept, the secrets stored encrypted and never shown. One workspace belongs to at most one account (409). Connecting again replaces the connection. " +
      ADMIN,
    tag: 'Slack',
    body: input.connectSlackInput,
    success: [{ status: 200, description: 'Connected', schema: rep.SlackConnectionV4 }],
    errors: [401, 403, 409, 502, ...BODY],
  },
  [`GET ${v4}/slack`]: {
    summary: 'The connected Slack workspace',
    description: '404 when Slack is not connected. Never the bot token or the signing secret.',
    tag: 'Slack',
    success: [{ status: 200, description: 'The connection', schema: rep.SlackConnectionV4 }],
    errors: READ,
  },
  [`DELETE ${v4}/slack`]: {
    summary: 'Disconnect Slack',
    description: `Pages on the slack channel then fail ("Slack is not connected"). ${ADMIN}`,
    tag: 'Slack',
    success: [{ status: 204, description: 'Disconnected' }],
    errors: [401, 403, 404],
  },
  [`GET ${v4}/slack/install`]: {
    summary: '"Add to Slack": the authorize URL',
    description: `Slack's authorize URL with the bot scopes and a signed state naming the account, valid 10 minutes; open it in the admin's browser. 404 unless the deployment sets SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_SIGNING_SECRET. ${ADMIN}`,
    tag: 'Slack',
    success: [{ status: 200, description: 'The URL', schema: rep.SlackInstallV4 }],
    errors: [401, 403, 404],
  },
  'GET /public/slack/oauth': {
    summary: '"Add to Slack": where Slack sends the browser back',
    description:
      "Exchanges Slack's code (oauth.v2.access) and connects the workspace to the account the state names. Browsers get a page; clients that send Accept: application/json get the JSON. 400: Slack sent no code (or the admin cancelled); 404: not a valid state, or Add to Slack is not configured; 410: the state expired (10 minutes); 409: the workspace belongs to another account; 502: Slack refused the code.",
    tag: 'Slack',
    public: true,
    query: [
      { name: 'code', required: false, description: "Slack's temporary code" },
      { name: 'state', required: false, description: 'The state of GET /api/v4/slack/install' },
      { name: 'error', required: false, description: 'Set by Slack when the admin did not allow the app' },
    ],
    success: [
      { status: 200, description: 'Connected', schema: rep.SlackInstallOutcome, html: true },
      { status: 400, description: 'No code, or the admin cancelled', schema: rep.SlackInstallOutcome, html: true },
      { status: 404, description: 'Not a valid state', schema: rep.SlackInstallOutcome, html: true },
      { status: 409, description: 'The workspace is connected to another account', schema: rep.SlackInstallOutcome, html: true },
      { status: 410, description: 'The state expired', schema: rep.SlackInstallOutcome, html: true },
      { status: 502, description: 'Slack refused the code', schema: rep.SlackInstallOutcome, html: true },
    ],
    errors: [],
  },
  'POST /public/slack/interactions': {
    summary: 'Button clicks from Slack',
    description:
      "Slack's interactivity request URL. Verified first: X-Slack-Request-Timestamp within 300 s and X-Slack-Signature (v0= HMAC-SHA256 of v0:<timestamp>:<raw body> with the signing secret of the workspace payload.team.id names); otherwise 401 and nothing changes. The Slack user acts as the account user whose slack_user_id they are: acknowledge, reject and resolve (value: the alert's alt_ id) as the v4 API does, or an answer to a broadcast. Refusals and unlinked users get an ephemeral explanation through response_url. Always answered within 3 s; the same click twice acts once.",
    tag: 'Slack',
    public: true,
    formOnly: true,
    body: input.slackInteractionForm,
    success: [{ status: 200, description: 'Received (what came of it follows through response_url and the alert’s messages)' }],
    errors: [400, 401],
  },
  'POST /public/slack/commands': {
    summary: 'The /oncall slash command',
    description:
      "Slack's slash command request URL, verified as interactions are (team_id names the workspace). /oncall: who is on call now for each of the person's teams, per layer; /oncall ack <tiny id>, /oncall resolve <tiny id>; /oncall page <team> <title…> (the team's \"Name\" in quotes, a name without spaces, or its tem_ id) creates an alert as the person. The answer is ephemeral.",
    tag: 'Slack',
    public: true,
    formOnly: true,
    body: input.slackCommandForm,
    success: [{ status: 200, description: 'The answer Slack shows the person', schema: rep.SlackCommandAnswer }],
    errors: [401],
  },

  // ---- teams, schedules, events, escalation policies ------------------------------------------
  ...resource(`${v4}/teams`, {
    tag: 'Teams',
    noun: 'team',
    plural: 'teams',
    item: rep.TeamV4,
    create: input.createTeamInput,
    update: input.updateTeamInput,
    form: true,
    writers: {
      create: ADMIN,
      update: "Account admins and the team's admins; only account admins may change schedule_id or escalation_policy_id (403 otherwise).",
      delete: ADMIN,
    },
    descriptions: {
      create:
        'Needs at least one member and one admin (an admin need not be a member). Also creates the team\'s schedule ("<name> Schedule") and escalation policy ("<name> Escalation Policy": one layer, 5 minutes, repeat 0).',
    },
  }),
  [`GET ${v4}/teams/{id}/current_oncall`]: {
    summary: 'Who is on call for a team now',
    description: `The team's schedule's current on-call (empty when the team has no schedule). ${ONCALL_ENTRIES}`,
    tag: 'Teams',
    success: [{ status: 200, description: 'The on-call spans in force now', schema: rep.OncallEntries }],
    errors: READ,
  },
  ...resource(`${v4}/schedules`, {
    tag: 'Schedules',
    noun: 'schedule',
    plural: 'schedules',
    item: rep.ScheduleV4,
    create: input.createScheduleInput,
    update: input.updateScheduleInput,
    form: true,
    writers: {
      create: ADMIN,
      update: "Account admins and the admins of the schedule's team (403 otherwise).",
      delete: ADMIN,
    },
    descriptions: { delete: 'Its events go too (those shared with other schedules only leave it), and teams lose their pointer to it.' },
  }),
  [`GET ${v4}/schedules/{id}/events`]: {
    summary: "List a schedule's events",
    description:
      'The stored events, repeats and rotations not expanded; accepts the list filters (e.g. ops=start_datetime:gte,end_datetime:lte).',
    tag: 'Schedules',
    list: rep.EventV4,
    success: [{ status: 200, description: 'A page of events' }],
    errors: NESTED_LIST,
  },
  [`DELETE ${v4}/schedule/{id}/flush`]: {
    summary: 'Remove every event of a schedule',
    description: "Note the singular segment. Account admins and the admins of the schedule's team (403 otherwise).",
    tag: 'Schedules',
    success: [{ status: 204, description: 'Flushed; no body' }],
    errors: [401, 403, 404, 409],
  },
  [`GET ${v4}/schedule/{id}/current_oncall`]: {
    summary: 'Who is on call on a schedule now',
    description: `Note the singular segment. ${ONCALL_ENTRIES}`,
    tag: 'Schedules',
    success: [{ status: 200, description: 'The on-call spans in force now', schema: rep.OncallEntries }],
    errors: READ,
  },
  [`GET ${v4}/schedule/{id}/window_events`]: {
    summary: 'Who is on call on a schedule during a window',
    description: `Note the singular segment. ${ONCALL_ENTRIES} Every span overlapping [start, end), sorted by start_time then layer. A bad format, end ≤ start, or a window over 366 days is a 422.`,
    tag: 'Schedules',
    query: [
      { name: 'start', required: true, description: 'UTC, YYYY-MM-DD HH:mm:ss (ISO 8601 also read)', example: '2026-03-01 00:00:00' },
      { name: 'end', required: true, description: 'UTC, YYYY-MM-DD HH:mm:ss (ISO 8601 also read)', example: '2026-03-08 00:00:00' },
    ],
    success: [{ status: 200, description: 'The on-call spans of the window', schema: rep.OncallEntries }],
    errors: [401, 404, 'invalid'],
  },
  ...resource(`${v4}/events`, {
    tag: 'Events',
    noun: 'event',
    plural: 'events',
    item: rep.EventV4,
    create: input.v4CreateEventInput,
    update: input.v4UpdateEventInput,
    form: true,
    writers: { create: SCHEDULE_EDITOR, update: SCHEDULE_EDITOR, delete: SCHEDULE_EDITOR },
    descriptions: {
      create:
        'Datetimes without an offset are wall-clock times in time_zone (a friendly name of /api/v4/events/time_zones or an IANA name). account_user_ids become event_attendees in the order given.',
      delete: 'Its overrides go too.',
    },
  }),
  [`GET ${v4}/events/time_zones`]: {
    summary: 'The time zone names events accept',
    tag: 'Events',
    success: [{ status: 200, description: 'Friendly time zone names (IANA names are accepted too)', schema: rep.TimeZoneNames }],
    errors: [401],
  },
  [`POST ${v4}/events/{id}/override`]: {
    summary: 'Override an occurrence',
    description: `Creates a child event (parent_id = this event) with the given attendees for the given span on the given layer; while it lasts it replaces the parent's occurrence on that layer. action_time names the occurrence by its start (422 when none starts then). ${SCHEDULE_EDITOR}`,
    tag: 'Events',
    body: input.overrideInput,
    form: true,
    success: [{ status: 201, description: 'The override (a child event)', schema: rep.EventV4 }],
    errors: [400, 401, 403, 404, 413, 'invalid'],
  },
  [`POST ${v4}/events/{id}/add_exception`]: {
    summary: 'Remove one occurrence',
    description: `action_time names the occurrence by its start (422 when none starts then). ${SCHEDULE_EDITOR}`,
    tag: 'Events',
    body: input.actionTimeInput,
    form: true,
    success: [{ status: 200, description: 'The event', schema: rep.EventV4 }],
    errors: [400, 401, 403, 404, 409, 413, 'invalid'],
  },
  [`POST ${v4}/events/{id}/terminate_on`]: {
    summary: 'Remove an occurrence and every later one',
    description: `action_time names the occurrence by its start (422 when none starts then). When it is the first occurrence the whole event goes (204). ${SCHEDULE_EDITOR}`,
    tag: 'Events',
    body: input.actionTimeInput,
    form: true,
    success: [
      { status: 200, description: 'The shortened event', schema: rep.EventV4 },
      { status: 204, description: 'The first occurrence was named: the event is deleted' },
    ],
    errors: [400, 401, 403, 404, 409, 413, 'invalid'],
  },
  ...resource('/event', {
    tag: 'Events (earlier)',
    noun: 'event',
    plural: 'events',
    item: rep.EventEarlier,
    create: input.earlierCreateEventInput,
    update: input.earlierUpdateEventInput,
    form: false,
    writers: { create: SCHEDULE_EDITOR, update: SCHEDULE_EDITOR, delete: SCHEDULE_EDITOR },
    descriptions: {
      create: 'start, end and repeatend are Unix seconds (ISO datetimes are read too); attendees are user (usr_) ids.',
    },
  }),
  ...resource(`${v4}/escalation_policies`, {
    tag: 'Escalation policies',
    noun: 'escalation policy',
    plural: 'escalation policies',
    item: rep.EscalationPolicyV4,
    create: input.createEscalationPolicyInput,
    update: input.updateEscalationPolicyInput,
    form: true,
    writers: { create: ADMIN, update: ADMIN, delete: ADMIN },
    descriptions: {
      create: 'escalation_layers may also arrive as escalation_layers_attributes (entries with _destroy are dropped).',
      delete: 'Teams that used it lose their pointer to it.',
    },
  }),

  // ---- integrations, maintenance windows, inbound webhooks ------------------------------------
  ...resource(`${v4}/integrations`, {
    tag: 'Integrations',
    noun: 'integration',
    plural: 'integrations',
    item: rep.IntegrationV4,
    create: input.createIntegrationV4Input,
    update: input.updateIntegrationV4Input,
    bodyExtra: input.integrationOptionFields,
    form: true,
    writers: { create: ADMIN, update: ADMIN, delete: ADMIN },
    descriptions: {
      create: 'Needs at least one destination. enabled defaults to true. Options arrive in options or as top-level option_<name> fields.',
    },
  }),
  [`GET ${v4}/integration_types`]: {
    summary: 'List the integration types',
    description: 'The read-only catalogue, the same in every account.',
    tag: 'Integrations',
    list: rep.IntegrationTypeV4,
    success: [{ status: 200, description: 'A page of integration types' }],
    errors: LIST,
  },
  [`GET ${v4}/integration_types/{id}`]: {
    summary: 'Get an integration type',
    description: 'By ULID, itt_ prefix id or slug.',
    tag: 'Integrations',
    success: [{ status: 200, description: 'The integration type', schema: rep.IntegrationTypeV4 }],
    errors: READ,
  },
  ...resource('/integration', {
    tag: 'Integrations (earlier)',
    noun: 'integration',
    plural: 'integrations',
    item: rep.IntegrationEarlier,
    create: input.createIntegrationEarlierInput,
    update: input.updateIntegrationEarlierInput,
    bodyExtra: input.integrationOptionFields,
    form: false,
    writers: { create: ADMIN, update: ADMIN, delete: ADMIN },
    descriptions: { create: 'type is an integration type slug (or id); destination_ids are team, user, router or schedule prefix ids.' },
  }),
  ...resource(`${v4}/maintenance_windows`, {
    tag: 'Maintenance windows',
    noun: 'maintenance window',
    plural: 'maintenance windows',
    item: rep.MaintenanceWindowV4,
    create: input.createMaintenanceWindowInput,
    update: input.updateMaintenanceWindowInput,
    form: true,
    writers: { create: ADMIN, update: ADMIN, delete: ADMIN },
    descriptions: {
      create:
        'While it lasts, webhooks to the listed integrations are logged and ignored. Datetimes without an offset are read in time_zone; description is accepted but not shown.',
    },
  }),
  'POST /integration/{id}': {
    summary: 'Inbound webhook',
    description:
      'No credentials. Any body up to 256 KiB (JSON, form-encoded or text) is stored as it came as a log and answered 202 before any alert work; the integration type\'s adapter then turns it into create, acknowledge, resolve or ignore, exactly once. During a maintenance window listing the integration the request is logged and ignored ("ignored": "maintenance_window"). When the integration has a token option, the pagertree-token header must carry it (403).',
    tag: 'Inbound webhooks',
    public: true,
    anyBody: true,
    success: [{ status: 202, description: 'Stored and queued', schema: rep.InboundAccepted }],
    errors: [403, 404, 405, 413, 429],
  },
  'POST /v2/enqueue': {
    summary: 'PagerDuty Events API v2 drop-in',
    description:
      "No credentials. A PagerDuty Events API v2 event, for any tool that can page PagerDuty: point its events URL at this route and use an integration's id (int_… or ULID) as the routing key. The event is checked at once as PagerDuty checks it (required fields per action, the four severities, length limits, images and links; event_action and severity are read case-insensitively) and refused with PagerDuty's 400 naming every fault, nothing stored; an unknown or disabled integration is an invalid routing key. A valid event is stored and processed like any inbound webhook of the integration (its token, rate limit and maintenance windows apply) and answered with PagerDuty's 202. A trigger without dedup_key gets one (the log's prefix id), returned for the acknowledge and resolve that follow. payload.custom_details, component, group, class, source, links and images are kept on the alert as additional_data. Every answer has PagerDuty's shape.",
    tag: 'Inbound webhooks',
    public: true,
    body: input.pagerDutyEventInput,
    success: [{ status: 202, description: 'Stored and queued (PagerDuty\'s "Event processed")', schema: rep.PagerDutyAccepted }],
    errors: [],
    ownErrors: [
      {
        status: 400,
        description: 'Invalid event: malformed JSON, a missing or invalid field, or an invalid routing key (each fault in errors)',
        schema: rep.PagerDutyError,
      },
      {
        status: 403,
        description: 'The integration has a token option and the pagertree-token header does not carry it',
        schema: rep.PagerDutyError,
      },
      { status: 413, description: 'The event is larger than 256 KiB', schema: rep.PagerDutyError },
      { status: 429, description: 'Throttled: retry after the Retry-After seconds', schema: rep.PagerDutyError },
    ],
  },

  // ---- routers, notification rules, automations ---------------------------------------------
  ...resource(`${v4}/routers`, {
    tag: 'Routers',
    noun: 'router',
    plural: 'routers',
    item: rep.RouterV4,
    create: input.createRouterV4Input,
    update: input.updateRouterV4Input,
    form: true,
    writers: { create: ADMIN, update: ADMIN, delete: ADMIN },
    descriptions: {
      create:
        'Needs a name and at least one default receiver (default_receiver_team_id, default_receiver_account_user_id or default_receiver_router_id: objects of the account, ULID or prefix id). rules is router YAML (docs/api.md#routers), validated (line and column in messages) and stored exactly as sent.',
      update: 'rules is validated as on create; a null default receiver clears it, and at least one must remain.',
    },
  }),
  [`POST ${v4}/routers/{id}/test`]: {
    summary: 'Dry-run a router',
    description:
      'Evaluates the router for the given alert (and optionally the request that made it, as log {data, headers}) and explains the decision: the rule that matched with each condition, whether it held and the value it saw; the rules tried before it with the first condition that failed; the actions that would run with their values resolved and the receivers. No side effects.',
    tag: 'Routers',
    body: input.routerTestInput,
    form: false,
    success: [{ status: 200, description: 'The explanation', schema: rep.RouterExplanation }],
    errors: [400, 401, 404, 413, 'invalid'],
  },
  ...resource('/router', {
    tag: 'Routers (earlier)',
    noun: 'router',
    plural: 'routers and notification rules',
    item: rep.RouterEarlier,
    create: input.createRouterEarlierInput,
    update: input.updateRouterEarlierInput,
    form: false,
    writers: { create: ADMIN, update: ADMIN, delete: ADMIN },
    descriptions: {
      create:
        'type router is a router (default_receiver required: a team, user, router or schedule prefix id); type notification is a notification rule, the same object as /api/v4/notification_rules. The YAML arrives as settings or rules and is shown under both.',
      get: 'A router (rtr_) or a notification rule (nrl_).',
      update: 'type cannot change.',
    },
  }),
  'GET /router/default-template/{type}': {
    summary: 'The starting YAML of a router or a notification rule',
    description:
      'type is router or notification (404 otherwise). The body is the YAML as a JSON string, which POST /router accepts as settings.',
    tag: 'Routers (earlier)',
    success: [{ status: 200, description: 'The template', schema: rep.DefaultTemplate }],
    errors: READ,
  },
  ...resource(`${v4}/notification_rules`, {
    tag: 'Notification rules',
    noun: 'notification rule',
    plural: 'notification rules',
    item: rep.NotificationRuleV4,
    create: input.createNotificationRuleInput,
    update: input.updateNotificationRuleInput,
    form: true,
    writers: { create: ADMIN, update: ADMIN, delete: ADMIN },
    descriptions: {
      create:
        "rules is notification rule YAML (docs/api.md#escalation-and-notifications), validated and stored exactly as sent. Assign it through an account user's notification_rule_id.",
      delete: 'Account users that used it lose their pointer (notification_rule_id becomes null): their default channels apply.',
    },
  }),
  [`POST ${v4}/notification_rules/{id}/test`]: {
    summary: 'Dry-run a notification rule',
    description:
      "Which channels a page for the given alert would use, and when, with the reasons: the rule that matched and each condition, the rules tried before it. The default channels are the caller's, or those of account_user_id; type is the event (default alert.open). No side effects.",
    tag: 'Notification rules',
    body: input.notificationRuleTestInput,
    form: false,
    success: [{ status: 200, description: 'The explanation', schema: rep.NotificationRuleExplanation }],
    errors: [400, 401, 404, 413, 'invalid'],
  },
  ...resource('/automation', {
    tag: 'Automations (earlier)',
    noun: 'automation',
    plural: 'automations',
    item: rep.AutomationEarlier,
    create: input.createAutomationInput,
    update: input.updateAutomationInput,
    form: false,
    writers: { create: ADMIN, update: ADMIN, delete: ADMIN },
    descriptions: {
      create:
        'settings is YAML with url and method (required), headers, params, data and auth {username, password}; text values may be Handlebars templates over the alert. Shown with the auth password replaced by ********; saving the marker back keeps the stored password.',
    },
  }),
  'POST /automation/{id}/run': {
    summary: 'Run an automation',
    description:
      'Performs its request now (10 s timeout) and answers the log of the run: status code, duration and an excerpt of the response. A target that resolves to a loopback, private, link-local or metadata address is refused (400, logged, nothing sent) unless the deployment sets ALLOW_PRIVATE_AUTOMATION_TARGETS=true. A disabled automation is a 409. Account admins only.',
    tag: 'Automations (earlier)',
    success: [{ status: 200, description: 'The log of the run', schema: rep.LogEarlier }],
    errors: [400, 401, 403, 404, 409],
  },
};
