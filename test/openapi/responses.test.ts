import { createECDH, randomBytes } from 'node:crypto';
// Real responses of the running service, validated against the OpenAPI document it serves: every
// status must be declared for its route, and every body must match the declared schema (strict
// objects, so a field added to a serializer without the document fails here). The walk touches
// every route of the route table, successes and the usual errors, and fails when one is missed.
// Every JSON body the service accepted must also match the documented request schema.
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, routeKey } from '../../lib/api/route-table';
import { ApiClient, createMember, type ApiResult } from '../support/api-client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startService, type TestService } from '../support/runtime';
import { voicemailLink } from '../../lib/voice-calls/voicemail-link';
import { OidcStandIn } from '../support/oidc-stand-in';
import { slackAppEnv, SlackStandIn } from '../support/slack-stand-in';
import { DocumentChecker } from './support';
import { FROM, opsgenieAccount } from '../importers/opsgenie-fixture';
import { OpsgenieStandIn } from '../importers/opsgenie-stand-in';
import { outboxMessages, testClock } from '../support/dependencies';
import { settle } from '../support/quiescence';

let service: TestService;
let checker: DocumentChecker;
let admin: ApiClient;
let anonymous: ApiClient;
let member: ApiClient;
let memberAccountUserId: string;
let me: { accountId: string; accountUserId: string; userId: string };
const exercised = new Set<string>();

let standIn: SlackStandIn;

beforeAll(async () => {
  standIn = await SlackStandIn.start();
  // Single sign-on's issuer and the import's source are stand-ins on loopback: plain http on a loopback address.
  service = await startService({
    env: {
      ...slackAppEnv(standIn),
      ALLOW_INSECURE_SSO_ISSUER: 'true',
      ALLOW_PRIVATE_IMPORT_SOURCES: 'true',
      VOICEMAIL_BUCKET: 'oncall-voicemail',
    },
  });
  admin = service.admin;
  anonymous = service.anonymous;
  const served = await anonymous.get('/api/v4/openapi.json');
  expect(served.status).toBe(200);
  checker = new DocumentChecker(served.body);
  const keys = await admin.get('/api/v4/api_keys');
  const accountUser = await admin.get(`/api/v4/account_users/${keys.body.data[0].account_user_id}`);
  me = { accountId: accountUser.body.account_id, accountUserId: accountUser.body.id, userId: accountUser.body.user_id };
  const created = await createMember(admin, { name: 'Plain Member' });
  member = created.client;
  memberAccountUserId = created.accountUser.id;
});
afterAll(async () => {
  await service?.stop();
  await standIn?.close();
});

interface Call {
  id?: string;
  /** SCIM's resource type segment (`Users`, `Groups`, a discovery document). */
  resource?: string;
  subscriptionId?: string;
  requestId?: string;
  query?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Leaves a redirect unfollowed (the answer is the 302 itself). */
  manual?: boolean;
}

async function unfollowed(client: ApiClient, method: string, path: string): Promise<ApiResult> {
  const res = await fetch(`${client.baseUrl}${path}`, { method, headers: client.headers, redirect: 'manual' });
  const text = await res.text();
  return { status: res.status, body: text, headers: res.headers, text };
}

/** One request by route template; its response must conform to the document, and have `status`. */
async function call(client: ApiClient, key: string, status: number, options: Call = {}): Promise<ApiResult> {
  const [method, template] = key.split(' ');
  const path =
    template
      .replace(/\{(id|token|type|identifier)\}/, encodeURIComponent(options.id ?? ''))
      .replace('{subscriptionId}', options.subscriptionId ?? '')
      .replace('{requestId}', options.requestId ?? '')
      .replace('{resource}', options.resource ?? '') + (options.query ? `?${options.query}` : '');
  const res = options.manual ? await unfollowed(client, method, path) : await client.request(method, path, options.body, options.headers);
  expect(res.status, `${key} → ${res.status} ${res.text.slice(0, 300)}`).toBe(status);
  expect(checker.check(method, template, res.status, res.body, res.text)).toEqual([]);
  if (res.status < 300 && options.body !== undefined && typeof options.body === 'object') {
    expect(checker.checkRequest(method, template, options.body)).toEqual([]);
  }
  exercised.add(key);
  return res;
}

const json = { 'content-type': 'application/json' };
const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

describe('platform routes', () => {
  it('health, the document, sign-in and signup', async () => {
    await call(anonymous, 'GET /health', 200);
    await call(anonymous, 'GET /api/v4/openapi.json', 200);
    await call(anonymous, 'POST /public/login', 200, { body: { username: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
    await call(anonymous, 'POST /public/login', 401, { body: { username: ADMIN_EMAIL, password: 'wrong password' } });
    await call(anonymous, 'POST /public/login', 400, { body: { username: ADMIN_EMAIL } });
    await call(anonymous, 'POST /public/login', 400, { body: '{not json', headers: json });
    const email = `signup-${Date.now()}@example.com`;
    const signup = { account_name: 'Acme', name: 'Ada', email, password: 'long enough secret' };
    await call(anonymous, 'POST /public/signup', 201, { body: signup });
    await call(anonymous, 'POST /public/signup', 409, { body: signup });
    await call(anonymous, 'POST /public/signup', 400, { body: { ...signup, password: 'short' } });
  });

  it('password reset and change', async () => {
    const { accountUser, client } = await createMember(admin, { name: 'Forgetful' });
    const address = accountUser.user.emails[0].email;
    await call(anonymous, 'POST /public/password_reset', 202, { body: { email: address } });
    await call(anonymous, 'POST /public/password_reset', 202, { body: { email: `nobody-${Date.now()}@example.com` } });
    await call(anonymous, 'POST /public/password_reset', 422, { body: { email: 'not an address' } });
    await call(anonymous, 'POST /public/password_reset', 400, { body: '{not json', headers: json });
    const link = outboxMessages().find((m) => m.to === address && m.template === 'password_reset')!.message;
    const token = /reset-password\/([\w-]+)/.exec(link)![1];
    await call(anonymous, 'POST /public/password_reset/{token}', 422, { id: token, body: { password: 'short' } });
    await call(anonymous, 'POST /public/password_reset/{token}', 204, { id: token, body: { password: 'a new long password' } });
    await call(anonymous, 'POST /public/password_reset/{token}', 404, { id: token, body: { password: 'a new long password' } });

    await call(client, 'POST /api/v4/account_users/{id}/password', 204, {
      id: accountUser.id,
      body: { current_password: 'a new long password', password: 'another long password' },
    });
    await call(client, 'POST /api/v4/account_users/{id}/password', 422, {
      id: accountUser.id,
      body: { current_password: 'wrong password', password: 'another long password' },
    });
    await call(admin, 'POST /api/v4/account_users/{id}/password', 403, {
      id: accountUser.id,
      body: { current_password: 'x', password: 'another long password' },
    });
    await call(client, 'POST /api/v4/account_users/{id}/password', 404, { id: 'acu_01ARZ3NDEKTSV4RRFFQ69G5FAV', body: {} });
  });

  it('push subscriptions, the VAPID key and inbound SMS', async () => {
    const browser = createECDH('prime256v1');
    browser.generateKeys();
    const subscription = {
      endpoint: 'https://push.example.com/send/abc',
      keys: { p256dh: browser.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
    };
    await call(admin, 'GET /api/v4/web_push', 200);
    await call(anonymous, 'GET /api/v4/web_push', 401);
    const created = await call(admin, 'POST /api/v4/account_users/{id}/push_subscriptions', 201, {
      id: me.accountUserId,
      body: subscription,
    });
    await call(admin, 'POST /api/v4/account_users/{id}/push_subscriptions', 422, { id: me.accountUserId, body: { endpoint: 'http://x' } });
    await call(member, 'POST /api/v4/account_users/{id}/push_subscriptions', 403, { id: me.accountUserId, body: subscription });
    await call(admin, 'GET /api/v4/account_users/{id}/push_subscriptions', 200, { id: me.accountUserId });
    await call(admin, 'DELETE /api/v4/account_users/{id}/push_subscriptions/{subscriptionId}', 204, {
      id: me.accountUserId,
      subscriptionId: created.body.id,
    });
    await call(admin, 'DELETE /api/v4/account_users/{id}/push_subscriptions/{subscriptionId}', 404, {
      id: me.accountUserId,
      subscriptionId: created.body.id,
    });
    await call(admin, 'POST /api/v4/account_users/{id}/push_subscriptions', 201, { id: me.accountUserId, body: subscription });
    await call(admin, 'DELETE /api/v4/account_users/{id}/push_subscriptions', 204, {
      id: me.accountUserId,
      query: `endpoint=${encodeURIComponent(subscription.endpoint)}`,
    });
    await call(admin, 'DELETE /api/v4/account_users/{id}/push_subscriptions', 422, { id: me.accountUserId });
    await call(anonymous, 'POST /public/sms/inbound', 404, { body: { Type: 'Notification' } });
    await call(anonymous, 'POST /public/delivery/sns', 404, { body: { Type: 'Notification' } });
  });

  it("the caller's account", async () => {
    await call(admin, 'GET /account/{id}', 200, { id: `acc_${me.accountId}` });
    await call(admin, 'GET /account/{id}', 404, { id: 'acc_01ARZ3NDEKTSV4RRFFQ69G5FAV' });
    await call(anonymous, 'GET /account/{id}', 401, { id: me.accountId });
    await call(admin, 'PUT /account/{id}', 200, { id: me.accountId, body: { name: 'Renamed' } });
    await call(member, 'PUT /account/{id}', 403, { id: me.accountId, body: { name: 'Nope' } });
  });

  it('API keys', async () => {
    const key = await call(admin, 'POST /api/v4/api_keys', 201, { body: { name: 'ci' } });
    await call(admin, 'POST /api/v4/api_keys', 422, { body: { name: '' } });
    await call(member, 'POST /api/v4/api_keys', 403, { body: { name: 'x', account_user_id: me.accountUserId } });
    await call(admin, 'GET /api/v4/api_keys', 200);
    await call(admin, 'GET /api/v4/api_keys', 422, { query: 'limit=0' });
    await call(admin, 'GET /api/v4/api_keys/{id}', 200, { id: key.body.prefix_id });
    await call(admin, 'DELETE /api/v4/api_keys/{id}', 204, { id: key.body.id });
    await call(admin, 'GET /api/v4/api_keys/{id}', 404, { id: key.body.id });
  });

  it('the audit trail', async () => {
    const key = await call(admin, 'POST /api/v4/api_keys', 201, { body: { name: 'audited' } });
    const events = await call(admin, 'GET /api/v4/audit_events', 200, { query: `object_id=${key.body.id}` });
    await call(admin, 'GET /api/v4/audit_events', 422, { query: 'limit=0' });
    await call(member, 'GET /api/v4/audit_events', 403);
    await call(anonymous, 'GET /api/v4/audit_events', 401);
    await call(admin, 'GET /api/v4/audit_events/{id}', 200, { id: events.body.data[0].id });
    await call(member, 'GET /api/v4/audit_events/{id}', 403, { id: events.body.data[0].id });
    await call(admin, 'GET /api/v4/audit_events/{id}', 404, { id: '01ARZ3NDEKTSV4RRFFQ69G5FAV' });
    await call(anonymous, 'GET /api/v4/audit_events/{id}', 401, { id: events.body.data[0].id });
  });

  it('imports', async () => {
    const opsgenie = new OpsgenieStandIn(opsgenieAccount(), 'genie-key-openapi');
    await opsgenie.start();
    try {
      const body = { source: 'opsgenie', api_key: 'genie-key-openapi', api_url: opsgenie.url, from: FROM };
      await call(admin, 'POST /api/v4/imports', 200, { body });
      await call(admin, 'POST /api/v4/imports', 422, { body: { ...body, api_key: '' } });
      await call(admin, 'POST /api/v4/imports', 422, { body: { ...body, api_key: 'wrong' } });
      await call(admin, 'POST /api/v4/imports', 502, { body: { ...body, api_url: 'http://127.0.0.1:9' } });
      await call(member, 'POST /api/v4/imports', 403, { body });
      await call(anonymous, 'POST /api/v4/imports', 401, { body });
    } finally {
      await opsgenie.stop();
    }
  });

  it('account users', async () => {
    const email = `person-${Date.now()}@example.com`;
    const body = { user_attributes: { name: 'Grace', emails_attributes: [{ email }], phones_attributes: [{ phone: '+14155550100' }] } };
    const created = await call(admin, 'POST /api/v4/account_users', 201, { body });
    await call(admin, 'POST /api/v4/account_users', 409, { body });
    await call(admin, 'POST /api/v4/account_users', 422, { body: { user_attributes: { emails_attributes: [] } } });
    await call(member, 'POST /api/v4/account_users', 403, { body });
    await call(admin, 'GET /api/v4/account_users', 200, { query: 'q=grace' });
    await call(admin, 'GET /api/v4/account_users/{id}', 200, { id: created.body.prefix_id });
    await call(admin, 'PUT /api/v4/account_users/{id}', 200, { id: created.body.id, body: { roles: { broadcaster: true } } });
    await call(member, 'PUT /api/v4/account_users/{id}', 403, { id: created.body.id, body: { roles: { admin: true } } });
    await call(admin, 'POST /api/v4/account_users/{id}/test_notification', 202, { id: created.body.id, body: { channel: 'sms' } });
    await call(admin, 'POST /api/v4/account_users/{id}/test_notification', 422, { id: created.body.id, body: { channel: 'fax' } });
    await call(member, 'POST /api/v4/account_users/{id}/test_notification', 403, { id: created.body.id, body: { channel: 'email' } });
    await call(admin, 'DELETE /api/v4/account_users/{id}', 204, { id: created.body.id });
    await call(admin, 'DELETE /api/v4/account_users/{id}', 404, { id: created.body.id });
  });
});

describe('alerts', () => {
  it('v4: create, read, update, transitions, comments, delete', async () => {
    const alert = await call(admin, 'POST /api/v4/alerts', 201, {
      body: {
        title: 'Disk full',
        urgency: 'high',
        tags: ['disk'],
        meta: { incident: true },
        // Paged: the other person, so the caller has no workflow to reject (409 below).
        destination_account_user_ids: [memberAccountUserId],
      },
    });
    await call(admin, 'POST /api/v4/alerts', 201, {
      body: 'title=Form+alert&urgency=low&destination_account_user_ids[]=' + me.accountUserId,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    await call(admin, 'POST /api/v4/alerts', 422, { body: { urgency: 'loud' } });
    await call(admin, 'POST /api/v4/alerts', 400, { body: '{"title":', headers: json });
    await call(admin, 'POST /api/v4/alerts', 413, { body: JSON.stringify({ title: 'x'.repeat(300 * 1024) }), headers: json });
    await call(anonymous, 'POST /api/v4/alerts', 401, { body: { title: 'x' } });
    await call(admin, 'GET /api/v4/alerts', 200, { query: 'status=open&sort=created_at&direction=desc&limit=5' });
    await call(admin, 'GET /api/v4/alerts', 422, { query: 'no_such_attribute=1' });
    await call(admin, 'GET /api/v4/alerts/{id}', 200, { id: alert.body.prefix_id });
    await call(admin, 'GET /api/v4/alerts/{id}', 404, { id: 'alt_01ARZ3NDEKTSV4RRFFQ69G5FAV' });
    await call(admin, 'PUT /api/v4/alerts/{id}', 200, { id: alert.body.id, body: { description: 'at 99%' } });
    await call(admin, 'POST /api/v4/alerts/{id}/reject', 409, { id: alert.body.id });
    await call(admin, 'POST /api/v4/alerts/{id}/acknowledge', 200, { id: alert.body.id });
    await call(admin, 'POST /api/v4/alerts/{id}/acknowledge', 409, { id: alert.body.id });
    await call(admin, 'POST /api/v4/alerts/{id}/resolve', 200, { id: alert.body.id });
    await call(admin, 'POST /api/v4/alerts/{id}/comments', 201, { id: alert.body.id, body: { text: 'looking' } });
    await call(admin, 'POST /api/v4/alerts/{id}/comments', 422, { id: alert.body.id, body: {} });
    await call(admin, 'GET /api/v4/alerts/{id}/comments', 200, { id: alert.body.id });
    await call(admin, 'GET /api/v4/alerts/{id}/comments', 404, { id: 'alt_01ARZ3NDEKTSV4RRFFQ69G5FAV' });
    await call(admin, 'DELETE /api/v4/alerts/{id}', 204, { id: alert.body.id });
    await call(admin, 'DELETE /api/v4/alerts/{id}', 404, { id: alert.body.id });
  });

  it('earlier interface: create, read with select, transitions, handoff, delete', async () => {
    const alert = await call(admin, 'POST /alert', 201, { body: { title: 'Earlier', destination_ids: [`acu_${memberAccountUserId}`] } });
    await call(admin, 'POST /alert', 400, { body: { title: 'No destinations' } });
    await call(admin, 'GET /alert', 200, { query: 'sort=-created&limit=3' });
    await call(admin, 'GET /alert', 200, { query: 'select=title,status,meta.incident' });
    await call(admin, 'GET /alert', 400, { query: 'limit=101' });
    await call(admin, 'GET /alert/{id}', 200, { id: alert.body.id });
    await call(admin, 'PUT /alert/{id}', 200, { id: alert.body.id, body: { tags: ['a', 'b'] } });
    await call(admin, 'POST /alert/{id}/resolve', 409, { id: alert.body.id });
    await call(admin, 'POST /alert/{id}/reject', 409, { id: alert.body.id });
    await call(admin, 'POST /alert/{id}/handoff', 200, { id: alert.body.id, body: { to: `usr_${me.userId}` } });
    await call(admin, 'POST /alert/{id}/handoff', 400, { id: alert.body.id, body: { to: 'nobody' } });
    await call(admin, 'POST /alert/{id}/acknowledge', 200, { id: alert.body.id });
    await call(admin, 'POST /alert/{id}/resolve', 200, { id: alert.body.id });
    await call(admin, 'POST /alert/{id}/archive', 200, { id: alert.body.id });
    await call(admin, 'POST /alert/{id}/handoff', 409, { id: alert.body.id, body: { to: `usr_${me.userId}` } });
    // The archived alert shows as such on v4 too: one domain, two representations.
    await call(admin, 'GET /api/v4/alerts/{id}', 200, { id: alert.body.id });
    await call(admin, 'DELETE /alert/{id}', 204, { id: alert.body.id });
    await call(admin, 'GET /alert/{id}', 404, { id: alert.body.id });
  });

  it('broadcasts, incidents and their logs, and notes', async () => {
    const broadcast = await call(admin, 'POST /broadcast', 201, {
      body: { title: 'Maintenance tonight', destination_ids: [`usr_${me.userId}`] },
    });
    await call(member, 'POST /broadcast', 403, { body: { title: 'x', destination_ids: [`usr_${me.userId}`] } });
    await call(admin, 'GET /broadcast', 200);
    await call(admin, 'GET /broadcast/{id}', 200, { id: broadcast.body.id });
    await call(admin, 'DELETE /broadcast/{id}', 204, { id: broadcast.body.id });

    const poll = await call(admin, 'POST /api/v4/broadcasts', 201, {
      body: {
        title: 'Who can join?',
        response_requested: true,
        response_requested_by: future(1),
        broadcast_response_options_attributes: [{ value: 'Yes' }, { value: 'No' }],
        destination_account_user_ids: [me.accountUserId, memberAccountUserId],
      },
    });
    await call(admin, 'POST /api/v4/broadcasts', 422, { body: { title: 'x' } });
    await call(member, 'POST /api/v4/broadcasts', 403, { body: { title: 'x', destination_account_user_ids: [me.accountUserId] } });
    await settle(service);
    expect((await admin.get(`/api/v4/broadcasts/${poll.body.id}`)).body.status).toBe('open');
    const yes = poll.body.broadcast_response_options[0].id;
    await call(member, 'POST /api/v4/broadcasts/{id}/respond', 200, { id: poll.body.id, body: { broadcast_response_option_id: yes } });
    await call(member, 'POST /api/v4/broadcasts/{id}/respond', 422, { id: poll.body.id, body: {} });
    await call(admin, 'GET /api/v4/broadcasts', 200);
    await call(admin, 'GET /api/v4/broadcasts/{id}', 200, { id: poll.body.prefix_id });
    await call(member, 'PUT /api/v4/broadcasts/{id}', 403, { id: poll.body.id, body: { status: 'closed' } });
    await call(admin, 'PUT /api/v4/broadcasts/{id}', 200, { id: poll.body.id, body: { status: 'closed' } });
    await call(admin, 'PUT /api/v4/broadcasts/{id}', 409, { id: poll.body.id, body: { status: 'closed' } });
    await call(member, 'POST /api/v4/broadcasts/{id}/respond', 409, { id: poll.body.id, body: { broadcast_response_option_id: yes } });
    await call(admin, 'DELETE /api/v4/broadcasts/{id}', 204, { id: poll.body.id });
    await call(admin, 'GET /api/v4/broadcasts/{id}', 404, { id: poll.body.id });
    const incident = await call(admin, 'POST /incident', 201, { body: { title: 'Outage', destination_ids: [`usr_${me.userId}`] } });
    await call(admin, 'GET /incident', 200);
    await call(admin, 'GET /incident/{id}', 200, { id: incident.body.id });
    await call(admin, 'PUT /incident/{id}', 200, { id: incident.body.id, body: { meta: { incident_severity: 'SEV-1' } } });
    const note = await call(admin, 'POST /log', 201, {
      body: { content: 'called the vendor', owner_id: incident.body.id, source_id: `usr_${me.userId}` },
    });
    await call(admin, 'POST /log', 400, { body: { content: 'x', owner_id: 'alt_nope', source_id: `usr_${me.userId}` } });
    await call(admin, 'GET /log/{id}', 200, { id: note.body.id });
    await call(admin, 'GET /log', 200, { query: `owner_id=${incident.body.id}` });
    await call(admin, 'GET /log', 200, { query: 'select=content,owner_id' });
    await call(admin, 'GET /incident/{id}/logs', 200, { id: incident.body.id });
    await call(admin, 'DELETE /incident/{id}', 204, { id: incident.body.id });
    await call(admin, 'GET /incident/{id}/logs', 404, { id: incident.body.id });
  });
});

describe('teams, schedules, events, escalation policies', () => {
  it('teams and their on-call and alerts', async () => {
    const team = await call(admin, 'POST /api/v4/teams', 201, {
      body: {
        name: 'Ops',
        member_account_user_ids: [me.accountUserId],
        admin_account_user_ids: [me.accountUserId],
        attachments: [{ filename: 'runbook', url: 'https://example.com/rb' }],
      },
    });
    await call(admin, 'POST /api/v4/teams', 422, { body: { name: 'No members' } });
    await call(member, 'POST /api/v4/teams', 403, {
      body: { name: 'x', member_account_user_ids: [me.accountUserId], admin_account_user_ids: [me.accountUserId] },
    });
    await call(admin, 'GET /api/v4/teams', 200);
    await call(admin, 'GET /api/v4/teams/{id}', 200, { id: team.body.prefix_id });
    await call(admin, 'PUT /api/v4/teams/{id}', 200, {
      id: team.body.id,
      body: { notes: 'pager rota', drop_notifications: 'team_admins' },
    });
    await call(member, 'PUT /api/v4/teams/{id}', 403, { id: team.body.id, body: { notes: 'x' } });
    await call(admin, 'GET /api/v4/teams/{id}/current_oncall', 200, { id: team.body.id });
    await call(admin, 'POST /api/v4/alerts', 201, {
      body: { title: 'For the team', urgency: 'low', destination_team_ids: [team.body.id] },
    });
    await call(admin, 'GET /api/v4/teams/{id}/alerts', 200, { id: team.body.id });
    await call(admin, 'GET /api/v4/teams/{id}/alerts', 404, { id: 'tem_01ARZ3NDEKTSV4RRFFQ69G5FAV' });

    // Events on the team's schedule, then who is on call.
    const scheduleId = team.body.schedule_id;
    const start = new Date(Date.now() - 3_600_000);
    start.setUTCMinutes(0, 0, 0);
    const event = await call(admin, 'POST /api/v4/events', 201, {
      body: {
        start_datetime: start.toISOString(),
        end_datetime: new Date(start.getTime() + 8 * 3_600_000).toISOString(),
        layer: 1,
        time_zone: 'Europe/Berlin',
        repeat: true,
        frequency: 1,
        frequency_unit: 'daily',
        rotation: true,
        schedule_ids: [scheduleId],
        account_user_ids: [me.accountUserId],
      },
    });
    await call(admin, 'POST /api/v4/events', 422, { body: { layer: 1, schedule_ids: [scheduleId] } });
    await call(member, 'POST /api/v4/events', 403, { body: { schedule_ids: [scheduleId] } });
    await call(admin, 'GET /api/v4/events', 200);
    await call(admin, 'GET /api/v4/events/time_zones', 200);
    await call(admin, 'GET /api/v4/events/{id}', 200, { id: event.body.prefix_id });
    await call(admin, 'PUT /api/v4/events/{id}', 200, { id: event.body.id, body: { days_of_week: [1, 2, 3, 4, 5] } });
    // Occurrences after the PUT: weekdays in Berlin at the start's Berlin time (the UTC date may be the
    // day before, so days are counted in the zone, never as 24 h steps).
    const occurrences = Array.from({ length: 14 }, (_, n) =>
      DateTime.fromJSDate(start)
        .setZone('Europe/Berlin')
        .plus({ days: n + 1 }),
    )
      .filter((day) => day.weekday <= 5)
      .map((day) => day.toJSDate());
    const [second, third, , terminateAt] = occurrences;
    await call(admin, 'POST /api/v4/events/{id}/override', 201, {
      id: event.body.id,
      body: {
        start_time: second.toISOString().slice(0, 16).replace('T', ' '),
        end_time: new Date(second.getTime() + 3_600_000).toISOString().slice(0, 16).replace('T', ' '),
        layer: 1,
        time_zone: 'UTC',
        account_user_ids: [me.accountUserId],
        action_time: second.toISOString(),
      },
    });
    await call(admin, 'POST /api/v4/events/{id}/add_exception', 200, { id: event.body.id, body: { action_time: third.toISOString() } });
    await call(admin, 'POST /api/v4/events/{id}/add_exception', 422, { id: event.body.id, body: { action_time: '2001-01-01T00:00:00Z' } });
    await call(admin, 'GET /api/v4/schedules/{id}/events', 200, { id: scheduleId });
    await call(admin, 'GET /api/v4/schedule/{id}/current_oncall', 200, { id: scheduleId });
    await call(admin, 'GET /api/v4/schedule/{id}/window_events', 200, {
      id: scheduleId,
      query: `start=${encodeURIComponent(start.toISOString().slice(0, 19).replace('T', ' '))}&end=${encodeURIComponent(future(7).slice(0, 19).replace('T', ' '))}`,
    });
    await call(admin, 'GET /api/v4/schedule/{id}/window_events', 422, { id: scheduleId, query: 'start=yesterday' });
    await call(admin, 'GET /api/v4/schedules/{id}/coverage', 200, {
      id: scheduleId,
      query: `start=${encodeURIComponent(start.toISOString())}&end=${encodeURIComponent(future(7))}`,
    });
    await call(admin, 'GET /api/v4/schedules/{id}/coverage', 422, { id: scheduleId, query: 'start=yesterday' });
    await call(admin, 'GET /api/v4/schedules/{id}/coverage', 404, { id: 'nope', query: 'start=2026-01-01&end=2026-01-02' });
    await call(admin, 'GET /api/v4/schedules/{id}/fairness', 200, {
      id: scheduleId,
      query: `start=${encodeURIComponent(start.toISOString())}&end=${encodeURIComponent(future(7))}`,
    });
    await call(admin, 'GET /api/v4/schedules/{id}/fairness', 422, { id: scheduleId, query: 'start=yesterday' });
    await call(admin, 'GET /api/v4/schedules/{id}/fairness', 404, { id: 'nope', query: 'start=2026-01-01&end=2026-01-02' });
    await call(member, 'GET /api/v4/reports/alerts', 200, { query: `start=2026-01-01&end=2026-01-15&bucket=week&team_id=${team.body.id}` });
    await call(admin, 'GET /api/v4/reports/alerts', 422, { query: 'start=2026-01-01T12:00:00Z&end=2026-01-02' });
    await call(anonymous, 'GET /api/v4/reports/alerts', 401, { query: 'start=2026-01-01&end=2026-01-02' });
    await call(member, 'GET /api/v4/reports/pages', 200, { query: 'start=2026-01-01&end=2026-01-15' });
    await call(admin, 'GET /api/v4/reports/pages', 422, { query: 'start=2026-01-01&end=2026-01-02&team_id=nope' });
    await call(anonymous, 'GET /api/v4/reports/pages', 401, { query: 'start=2026-01-01&end=2026-01-02' });

    const feed = await call(member, 'POST /api/v4/schedules/{id}/calendar', 201, { id: scheduleId });
    const feedFile = new URL(feed.body.url as string).pathname.split('/').pop()!;
    await call(anonymous, 'GET /public/calendars/{token}', 200, { id: feedFile });
    await call(admin, 'POST /api/v4/schedules/{id}/calendar', 404, { id: 'nope' });
    await call(member, 'DELETE /api/v4/schedules/{id}/calendar', 403, { id: scheduleId });
    await call(admin, 'DELETE /api/v4/schedules/{id}/calendar', 204, { id: scheduleId });
    await call(admin, 'DELETE /api/v4/schedules/{id}/calendar', 404, { id: 'nope' });
    await call(anonymous, 'GET /public/calendars/{token}', 404, { id: feedFile });
    await call(member, 'POST /api/v4/account_users/{id}/calendar', 201, { id: memberAccountUserId });
    await call(member, 'POST /api/v4/account_users/{id}/calendar', 403, { id: me.accountUserId });
    await call(admin, 'POST /api/v4/account_users/{id}/calendar', 404, { id: 'nope' });
    await call(member, 'DELETE /api/v4/account_users/{id}/calendar', 403, { id: me.accountUserId });
    await call(member, 'DELETE /api/v4/account_users/{id}/calendar', 204, { id: memberAccountUserId });
    await call(anonymous, 'DELETE /api/v4/account_users/{id}/calendar', 401, { id: memberAccountUserId });
    await call(admin, 'DELETE /api/v4/account_users/{id}/calendar', 404, { id: 'nope' });
    await call(anonymous, 'POST /api/v4/schedules/{id}/calendar', 401, { id: scheduleId });
    await call(anonymous, 'DELETE /api/v4/schedules/{id}/calendar', 401, { id: scheduleId });
    await call(anonymous, 'POST /api/v4/account_users/{id}/calendar', 401, { id: memberAccountUserId });
    await call(admin, 'POST /api/v4/events/{id}/terminate_on', 200, {
      id: event.body.id,
      body: { action_time: terminateAt.toISOString() },
    });
    await call(admin, 'POST /api/v4/events/{id}/terminate_on', 204, { id: event.body.id, body: { action_time: start.toISOString() } });
    await call(admin, 'GET /api/v4/events/{id}', 404, { id: event.body.id });

    const oneOff = await call(admin, 'POST /api/v4/events', 201, {
      body: {
        start_datetime: future(1),
        end_datetime: future(2),
        layer: 2,
        time_zone: 'UTC',
        schedule_ids: [scheduleId],
        account_user_ids: [me.accountUserId],
      },
    });
    await call(admin, 'DELETE /api/v4/events/{id}', 204, { id: oneOff.body.id });

    // The earlier interface's events, on the same schedule.
    const earlier = await call(admin, 'POST /event', 201, {
      body: {
        schedule_id: [`skd_${scheduleId}`],
        attendees: [`usr_${me.userId}`],
        layer: 1,
        start: Math.floor(Date.now() / 1000),
        end: Math.floor(Date.now() / 1000) + 3600,
      },
    });
    await call(admin, 'POST /event', 400, { body: { layer: 1 } });
    await call(admin, 'GET /event', 200);
    await call(admin, 'GET /event', 200, { query: 'select=start,end' });
    await call(admin, 'GET /event/{id}', 200, { id: earlier.body.id });
    await call(admin, 'PUT /event/{id}', 200, { id: earlier.body.id, body: { layer: 3 } });
    await call(admin, 'DELETE /event/{id}', 204, { id: earlier.body.id });

    await call(admin, 'DELETE /api/v4/schedule/{id}/flush', 204, { id: scheduleId });
    await call(member, 'DELETE /api/v4/schedule/{id}/flush', 403, { id: scheduleId });
    await call(member, 'DELETE /api/v4/teams/{id}', 403, { id: team.body.id });
    await call(admin, 'DELETE /api/v4/teams/{id}', 204, { id: team.body.id });
  });

  it('schedules', async () => {
    const schedule = await call(admin, 'POST /api/v4/schedules', 201, { body: { name: 'Weekend' } });
    await call(admin, 'POST /api/v4/schedules', 422, { body: { name: ' ' } });
    await call(admin, 'GET /api/v4/schedules', 200, { query: 'q=week' });
    await call(admin, 'GET /api/v4/schedules/{id}', 200, { id: schedule.body.prefix_id });
    await call(admin, 'PUT /api/v4/schedules/{id}', 200, { id: schedule.body.id, body: { name: 'Weekends' } });
    await call(member, 'DELETE /api/v4/schedules/{id}', 403, { id: schedule.body.id });
    await call(admin, 'DELETE /api/v4/schedules/{id}', 204, { id: schedule.body.id });
    await call(admin, 'GET /api/v4/schedules/{id}/events', 404, { id: schedule.body.id });
  });

  it('escalation policies', async () => {
    const policy = await call(admin, 'POST /api/v4/escalation_policies', 201, {
      body: { name: 'Night', repeat: 1, escalation_layers: [{ timeout: 5 }, { timeout: 1, timeout_unit: 'hours' }] },
    });
    await call(admin, 'POST /api/v4/escalation_policies', 422, { body: { name: 'x', repeat: 9 } });
    await call(admin, 'GET /api/v4/escalation_policies', 200);
    await call(admin, 'GET /api/v4/escalation_policies/{id}', 200, { id: policy.body.prefix_id });
    await call(admin, 'PUT /api/v4/escalation_policies/{id}', 200, { id: policy.body.id, body: { repeat: 2 } });
    await call(member, 'PUT /api/v4/escalation_policies/{id}', 403, { id: policy.body.id, body: { repeat: 2 } });
    await call(admin, 'DELETE /api/v4/escalation_policies/{id}', 204, { id: policy.body.id });
  });
});

describe('integrations, maintenance windows, inbound webhooks', () => {
  it('the catalogue, both interfaces, windows and the inbound endpoint', async () => {
    const types = await call(admin, 'GET /api/v4/integration_types', 200, { query: 'limit=100' });
    const webhook = types.body.data.find((t: { slug: string }) => t.slug === 'webhook');
    await call(admin, 'GET /api/v4/integration_types/{id}', 200, { id: webhook.prefix_id });
    await call(admin, 'GET /api/v4/integration_types/{id}', 404, { id: 'itt_01ARZ3NDEKTSV4RRFFQ69G5FAV' });

    const integration = await call(admin, 'POST /api/v4/integrations', 201, {
      body: {
        name: 'Alertmanager',
        urgency: 'high',
        integration_type_id: webhook.id,
        account_user_ids: [me.accountUserId],
        option_capture_additional_data: true,
      },
    });
    await call(admin, 'POST /api/v4/integrations', 422, { body: { name: 'x', urgency: 'high', integration_type_id: webhook.id } });
    await call(admin, 'GET /api/v4/integrations', 200);
    await call(admin, 'GET /api/v4/integrations/{id}', 200, { id: integration.body.prefix_id });
    await call(admin, 'PUT /api/v4/integrations/{id}', 200, { id: integration.body.id, body: { options: { rate_limit_per_minute: 2 } } });
    await call(member, 'PUT /api/v4/integrations/{id}', 403, { id: integration.body.id, body: { name: 'x' } });

    await call(anonymous, 'POST /integration/{id}', 202, { id: integration.body.prefix_id, body: { title: 'CPU high', id: 'cpu-1' } });
    await call(anonymous, 'POST /integration/{id}', 202, {
      id: integration.body.id,
      body: 'plain text',
      headers: { 'content-type': 'text/plain' },
    });
    await call(anonymous, 'POST /integration/{id}', 429, { id: integration.body.id, body: { title: 'again' } });
    await call(anonymous, 'POST /integration/{id}', 404, { id: 'int_01ARZ3NDEKTSV4RRFFQ69G5FAV', body: {} });

    // PagerDuty's drop-in answers in PagerDuty's shapes (202, 400, 429), validated against the document.
    const pagerduty = await call(admin, 'POST /api/v4/integrations', 201, {
      body: { name: 'PagerDuty senders', urgency: 'high', integration_type_id: webhook.id, account_user_ids: [me.accountUserId] },
    });
    const event = {
      routing_key: pagerduty.body.prefix_id,
      event_action: 'trigger',
      payload: { summary: 'Disk full on db-1', source: 'db-1', severity: 'critical', custom_details: { free: '0 B' } },
      links: [{ href: 'https://grafana.example.com/d/disk', text: 'Dashboard' }],
    };
    const accepted = await call(anonymous, 'POST /v2/enqueue', 202, { body: event });
    expect(accepted.body).toMatchObject({ status: 'success', message: 'Event processed' });
    await call(anonymous, 'POST /v2/enqueue', 202, { body: { ...event, event_action: 'resolve', dedup_key: accepted.body.dedup_key } });
    await call(anonymous, 'POST /v2/enqueue', 400, { body: { ...event, payload: { summary: 'no source' } } });
    await call(anonymous, 'POST /v2/enqueue', 400, { body: { ...event, routing_key: 'int_01ARZ3NDEKTSV4RRFFQ69G5FAV' } });
    await call(anonymous, 'POST /v2/enqueue', 400, { body: '{not json', headers: json });
    // A bucket of one token a minute, never used: the first event takes it, the second is throttled.
    const slow = await call(admin, 'POST /api/v4/integrations', 201, {
      body: {
        name: 'Slow',
        urgency: 'low',
        integration_type_id: webhook.id,
        account_user_ids: [me.accountUserId],
        option_rate_limit_per_minute: 1,
      },
    });
    await call(anonymous, 'POST /v2/enqueue', 202, { body: { ...event, routing_key: slow.body.id } });
    const throttled = await call(anonymous, 'POST /v2/enqueue', 429, { body: { ...event, routing_key: slow.body.id } });
    expect(throttled.body.status).toBe('throttle event');

    // Opsgenie's drop-in answers in Opsgenie's shapes (202, 400, 401, 422), validated against the document.
    const genie = new ApiClient(service.url, { authorization: `GenieKey ${pagerduty.body.prefix_id}` });
    const alias = { id: 'db-2-disk', query: 'identifierType=alias' };
    const made = await call(genie, 'POST /v2/alerts', 202, {
      body: { message: 'Disk full on db-2', alias: 'db-2-disk', priority: 'P2', tags: ['disk'] },
    });
    await call(genie, 'PUT /v2/alerts/{identifier}/message', 202, { ...alias, body: { message: 'Disk full on db-2 and db-3' } });
    await call(genie, 'PUT /v2/alerts/{identifier}/description', 202, { ...alias, body: { description: 'Both volumes' } });
    await call(genie, 'POST /v2/alerts/{identifier}/acknowledge', 202, { ...alias, body: { user: 'ops', note: 'on it' } });
    await call(genie, 'POST /v2/alerts/{identifier}/close', 202, { ...alias, body: { source: 'Grafana' } });
    await call(genie, 'POST /v2/alerts', 422, { body: { alias: 'no message' } });
    await call(genie, 'POST /v2/alerts/{identifier}/close', 422, { id: 'x', query: 'identifierType=name', body: {} });
    await call(genie, 'POST /v2/alerts', 400, { body: '{not json', headers: json });
    await call(anonymous, 'POST /v2/alerts', 401, { body: { message: 'no key' } });
    // The create's status, once the worker has processed it (404 until then).
    for (let tries = 0; (await genie.get(`/v2/alerts/requests/${made.body.requestId}`)).status !== 200; tries++) {
      expect(tries, 'the create was processed').toBeLessThan(100);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await call(genie, 'GET /v2/alerts/requests/{requestId}', 200, { requestId: made.body.requestId });
    await call(genie, 'GET /v2/alerts/requests/{requestId}', 404, { requestId: '513085b8-caf3-4f91-aa23-be5fdefc3570' });

    const earlier = await call(admin, 'POST /integration', 201, {
      body: { name: 'Grafana', type: 'grafana', destination_ids: [`usr_${me.userId}`], option_token: 's3cret' },
    });
    await call(admin, 'POST /integration', 400, { body: { name: 'x', type: 'nope', destination_ids: [] } });
    await call(admin, 'GET /integration', 200, { query: 'select=name,type' });
    await call(admin, 'GET /integration/{id}', 200, { id: earlier.body.id });
    await call(anonymous, 'POST /integration/{id}', 403, { id: earlier.body.id, body: { state: 'alerting' } });

    const window = await call(admin, 'POST /api/v4/maintenance_windows', 201, {
      body: {
        name: 'Upgrade',
        start_datetime: new Date(Date.now() - 60_000).toISOString(),
        end_datetime: future(1),
        time_zone: 'UTC',
        integration_ids: [earlier.body.id],
      },
    });
    await call(anonymous, 'POST /integration/{id}', 202, {
      id: earlier.body.id,
      body: { state: 'alerting' },
      headers: { 'pagertree-token': 's3cret' },
    });
    await call(admin, 'POST /api/v4/maintenance_windows', 422, { body: { name: 'x', integration_ids: [] } });
    await call(member, 'POST /api/v4/maintenance_windows', 403, { body: { name: 'x' } });
    await call(admin, 'GET /api/v4/maintenance_windows', 200);
    await call(admin, 'GET /api/v4/maintenance_windows/{id}', 200, { id: window.body.prefix_id });
    await call(admin, 'PUT /api/v4/maintenance_windows/{id}', 200, { id: window.body.id, body: { name: 'Upgrade DB' } });
    await call(admin, 'DELETE /api/v4/maintenance_windows/{id}', 204, { id: window.body.id });

    await call(admin, 'PUT /integration/{id}', 200, { id: earlier.body.id, body: { enabled: false } });
    await call(anonymous, 'POST /integration/{id}', 405, { id: earlier.body.id, body: {}, headers: { 'pagertree-token': 's3cret' } });
    await call(admin, 'DELETE /integration/{id}', 204, { id: earlier.body.id });

    // A heartbeat: its state on both representations, and a GET without credentials is a beat.
    const heartbeat = await call(admin, 'POST /api/v4/integrations', 201, {
      body: {
        name: 'Backup heartbeat',
        urgency: 'high',
        integration_type_id: 'heartbeat',
        account_user_ids: [me.accountUserId],
        option_interval_seconds: 300,
      },
    });
    await call(anonymous, 'GET /integration/{id}', 202, { id: heartbeat.body.prefix_id });
    await call(anonymous, 'POST /integration/{id}', 202, { id: heartbeat.body.id, body: {} });
    await call(admin, 'GET /integration/{id}', 200, { id: heartbeat.body.prefix_id });
    await call(admin, 'GET /api/v4/integrations/{id}', 200, { id: heartbeat.body.id });
    await call(anonymous, 'GET /integration/{id}', 401, { id: integration.body.prefix_id });
    await call(admin, 'DELETE /api/v4/integrations/{id}', 204, { id: heartbeat.body.id });
    await call(admin, 'DELETE /api/v4/integrations/{id}', 204, { id: integration.body.id });
    await call(admin, 'DELETE /api/v4/integrations/{id}', 404, { id: integration.body.id });
  });
});

describe('notifications and one-click responses', () => {
  it('lists and reads notifications on both interfaces; rejects and responds from a page', async () => {
    const alert = await call(admin, 'POST /api/v4/alerts', 201, {
      body: { title: 'Paged', urgency: 'high', destination_account_user_ids: [me.accountUserId] },
    });
    await settle(service);
    const sent: { id: string }[] = (await admin.get(`/api/v4/notifications?alert_id=${alert.body.id}`)).body.data;
    expect(sent).toHaveLength(2);
    await call(admin, 'GET /api/v4/notifications', 200, { query: `alert_id=${alert.body.id}&channel=email` });
    await call(admin, 'GET /api/v4/notifications', 422, { query: 'no_such_attribute=1' });
    await call(admin, 'GET /api/v4/notifications/{id}', 200, { id: sent[0].id });
    await call(admin, 'GET /api/v4/notifications/{id}', 404, { id: 'ntf_01ARZ3NDEKTSV4RRFFQ69G5FAV' });
    await call(admin, 'GET /notification', 200, { query: `source_id=alt_${alert.body.id}&select=channel,user_id` });
    await call(admin, 'GET /notification', 400, { query: 'limit=0' });
    await call(admin, 'GET /notification/{id}', 200, { id: `ntf_${sent[0].id}` });
    await call(admin, 'GET /notification/{id}', 404, { id: 'ntf_01ARZ3NDEKTSV4RRFFQ69G5FAV' });

    const page = outboxMessages().find(
      (m) => m.channel === 'email' && m.message.includes(`#${alert.body.tiny_id}`) && m.links?.acknowledge,
    );
    const token = (link: string) => link.split('/').pop()!;
    const accept = { accept: 'application/json' };
    await call(anonymous, 'GET /public/respond/{token}', 200, { id: token(page!.links!.acknowledge!), headers: accept });
    await call(anonymous, 'GET /public/respond/{token}', 404, { id: 'r1.nope.nope', headers: accept });
    await call(anonymous, 'POST /public/respond/{token}', 404, { id: 'garbage', headers: accept });
    await call(anonymous, 'POST /public/respond/{token}', 200, { id: token(page!.links!.reject!), headers: accept });
    await call(anonymous, 'POST /public/respond/{token}', 409, { id: token(page!.links!.reject!), headers: accept });
    // Rejected by its only person: the alert dropped, and may still be acknowledged once.
    await call(anonymous, 'POST /public/respond/{token}', 200, { id: token(page!.links!.acknowledge!), headers: accept });
    await call(anonymous, 'GET /public/respond/{token}', 409, { id: token(page!.links!.acknowledge!), headers: accept });

    // A voicemail link of a live call: 302 to the recording, 404 for another, 410 once 7 days are past.
    const voicemail = token(await voicemailLink('oncall-voicemail', `voicemail/${alert.body.account_id}/${alert.body.id}/t1.wav`));
    await call(anonymous, 'GET /public/voicemail/{token}', 302, { id: voicemail, manual: true });
    await call(anonymous, 'GET /public/voicemail/{token}', 404, { id: 'nope.nope' });
    testClock.advance(7 * 86_400_000);
    try {
      await call(anonymous, 'GET /public/voicemail/{token}', 410, { id: voicemail });
    } finally {
      testClock.reset();
    }

    // A reject by the paged person (a second alert: the first was rejected through its link).
    const second = await call(admin, 'POST /api/v4/alerts', 201, {
      body: { title: 'Paged again', urgency: 'high', destination_account_user_ids: [me.accountUserId] },
    });
    await settle(service);
    expect((await admin.get(`/api/v4/notifications?alert_id=${second.body.id}`)).body.total_count).toBeGreaterThanOrEqual(1);
    await call(admin, 'POST /api/v4/alerts/{id}/reject', 200, { id: second.body.id });
  });
});

describe('routers, notification rules, automations', () => {
  it('both interfaces, dry runs, default templates and automation runs', async () => {
    const rules =
      'rules:\n  - match:\n      alert.urgency: high\n    actions:\n      - type: setval\n        map:\n          title: "[P1] {{alert.title}}"\n';
    const router = await call(admin, 'POST /api/v4/routers', 201, {
      body: { name: 'Main', rules, default_receiver_account_user_id: me.accountUserId },
    });
    await call(admin, 'POST /api/v4/routers', 422, { body: { name: 'No receiver' } });
    await call(member, 'POST /api/v4/routers', 403, { body: { name: 'x', default_receiver_account_user_id: me.accountUserId } });
    await call(admin, 'GET /api/v4/routers', 200, { query: 'q=main' });
    await call(admin, 'GET /api/v4/routers/{id}', 200, { id: router.body.prefix_id });
    await call(admin, 'PUT /api/v4/routers/{id}', 200, { id: router.body.id, body: { enabled: false } });
    await call(admin, 'PUT /api/v4/routers/{id}', 422, { id: router.body.id, body: { rules: 'rules: [' } });
    await call(admin, 'POST /api/v4/routers/{id}/test', 200, { id: router.body.id, body: { alert: { title: 'x', urgency: 'high' } } });
    await call(admin, 'POST /api/v4/routers/{id}/test', 422, { id: router.body.id, body: { alert: 1 } });
    await call(admin, 'POST /api/v4/routers/{id}/test', 404, { id: 'rtr_01ARZ3NDEKTSV4RRFFQ69G5FAV', body: { alert: {} } });

    const template = await call(admin, 'GET /router/default-template/{type}', 200, { id: 'router' });
    await call(admin, 'GET /router/default-template/{type}', 404, { id: 'other' });
    const earlier = await call(admin, 'POST /router', 201, {
      body: { name: 'Earlier', type: 'router', settings: template.body, default_receiver: `usr_${me.userId}` },
    });
    await call(admin, 'POST /router', 400, { body: { name: 'x', type: 'router', settings: 'rules: [' } });
    const paging = await call(admin, 'POST /router', 201, { body: { name: 'Paging', type: 'notification', rules: 'rules: []\n' } });
    await call(admin, 'GET /router', 200, { query: 'select=name,type' });
    await call(admin, 'GET /router/{id}', 200, { id: earlier.body.id });
    await call(admin, 'GET /router/{id}', 200, { id: paging.body.id });
    await call(admin, 'PUT /router/{id}', 200, { id: earlier.body.id, body: { name: 'Renamed' } });
    await call(admin, 'DELETE /router/{id}', 204, { id: earlier.body.id });
    await call(admin, 'DELETE /router/{id}', 404, { id: earlier.body.id });
    await call(admin, 'DELETE /api/v4/routers/{id}', 204, { id: router.body.id });

    const rule = await call(admin, 'POST /api/v4/notification_rules', 201, { body: { name: 'Night', rules: 'rules: []\n' } });
    await call(admin, 'POST /api/v4/notification_rules', 422, { body: { name: 'x', rules: 'rules:\n  - nope' } });
    await call(member, 'POST /api/v4/notification_rules', 403, { body: { name: 'x' } });
    await call(admin, 'GET /api/v4/notification_rules', 200);
    await call(admin, 'GET /api/v4/notification_rules/{id}', 200, { id: rule.body.prefix_id });
    await call(admin, 'PUT /api/v4/notification_rules/{id}', 200, { id: rule.body.id, body: { enabled: false } });
    await call(admin, 'POST /api/v4/notification_rules/{id}/test', 200, { id: rule.body.id, body: { alert: { urgency: 'low' } } });
    await call(admin, 'POST /api/v4/notification_rules/{id}/test', 422, { id: rule.body.id, body: {} });
    await call(admin, 'DELETE /api/v4/notification_rules/{id}', 204, { id: rule.body.id });

    const automation = await call(admin, 'POST /automation', 201, {
      body: { name: 'Hook', settings: 'url: http://127.0.0.1:9/x\nmethod: POST\nauth:\n  username: u\n  password: p\n' },
    });
    await call(admin, 'POST /automation', 400, { body: { name: 'x', settings: 'method: GET' } });
    await call(admin, 'GET /automation', 200);
    await call(admin, 'GET /automation/{id}', 200, { id: automation.body.id });
    await call(admin, 'PUT /automation/{id}', 200, { id: automation.body.id, body: { name: 'Hook 2' } });
    await call(admin, 'POST /automation/{id}/run', 400, { id: automation.body.id });
    await call(member, 'POST /automation/{id}/run', 403, { id: automation.body.id });
    await call(admin, 'PUT /automation/{id}', 200, { id: automation.body.id, body: { enabled: false } });
    await call(admin, 'POST /automation/{id}/run', 409, { id: automation.body.id });
    await call(admin, 'DELETE /automation/{id}', 204, { id: automation.body.id });
    await call(admin, 'POST /automation/{id}/run', 404, { id: automation.body.id });
  });
});

describe('Slack', () => {
  it('the connection, Add to Slack, clicks and /oncall', async () => {
    const workspace = standIn.addWorkspace('Documented');
    const connection = { bot_token: workspace.botToken, signing_secret: workspace.signingSecret };
    await call(admin, 'GET /api/v4/slack', 404);
    await call(admin, 'PUT /api/v4/slack', 422, { body: { bot_token: 'xoxb-1-refused', signing_secret: workspace.signingSecret } });
    await call(member, 'PUT /api/v4/slack', 403, { body: connection });
    await call(admin, 'PUT /api/v4/slack', 200, { body: connection });
    await call(admin, 'GET /api/v4/slack', 200);
    const other = await anonymous.post('/public/signup', {
      account_name: 'Rival',
      name: 'Rival',
      email: `rival-${Date.now()}@example.com`,
      password: 'long enough secret',
    });
    const rival = new ApiClient(service.url, { authorization: `Bearer ${other.body.token}` });
    await call(rival, 'PUT /api/v4/slack', 409, { body: connection });

    const install = await call(admin, 'GET /api/v4/slack/install', 200);
    await call(member, 'GET /api/v4/slack/install', 403);
    const url = new URL(install.body.url);
    const state = encodeURIComponent(url.searchParams.get('state')!);
    const accept = { accept: 'application/json' };
    const installed = standIn.addWorkspace('Installed');
    const code = standIn.authorize(installed, url.searchParams.get('redirect_uri')!);
    await call(anonymous, 'GET /public/slack/oauth', 400, { query: `state=${state}`, headers: accept });
    await call(anonymous, 'GET /public/slack/oauth', 404, { query: `code=x&state=nope.nope`, headers: accept });
    await call(anonymous, 'GET /public/slack/oauth', 502, { query: `code=nope&state=${state}`, headers: accept });
    await call(anonymous, 'GET /public/slack/oauth', 200, { query: `code=${code}&state=${state}`, headers: accept });
    const rivalState = encodeURIComponent(new URL((await rival.get('/api/v4/slack/install')).body.url).searchParams.get('state')!);
    const taken = standIn.authorize(installed, url.searchParams.get('redirect_uri')!);
    await call(anonymous, 'GET /public/slack/oauth', 409, { query: `code=${taken}&state=${rivalState}`, headers: accept });

    // Installed by OAuth, the workspace signs with the app's secret.
    const signed = (body: string, secret = standIn.app.signingSecret) => {
      const timestamp = Math.floor(Date.now() / 1000);
      return {
        body,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-slack-request-timestamp': String(timestamp),
          'x-slack-signature': SlackStandIn.sign(secret, timestamp, body),
        },
      };
    };
    const clicked = standIn.clickPayload(installed, {
      userId: 'UNOBODY09',
      actionId: 'acknowledge',
      value: 'alt_01ARZ3NDEKTSV4RRFFQ69G5FAV',
    });
    await call(anonymous, 'POST /public/slack/interactions', 200, signed(clicked.body));
    await call(anonymous, 'POST /public/slack/interactions', 401, signed(clicked.body, 'wrong'));
    await call(
      anonymous,
      'POST /public/slack/interactions',
      400,
      signed(`payload=${encodeURIComponent(JSON.stringify({ team: { id: installed.teamId } }))}`),
    );
    const commanded = standIn.commandBody(installed, { userId: 'UNOBODY09', text: '' });
    await call(anonymous, 'POST /public/slack/commands', 200, signed(commanded.body));
    await call(anonymous, 'POST /public/slack/commands', 401, signed(commanded.body, 'wrong'));
    await call(anonymous, 'POST /public/slack/commands', 400, signed(`team_id=${installed.teamId}&text=`));

    await call(member, 'DELETE /api/v4/slack', 403);
    await call(admin, 'DELETE /api/v4/slack', 204);
    await call(admin, 'DELETE /api/v4/slack', 404);
  });
});

describe('single sign-on', () => {
  it('the settings, the accounts of an address, the start, the callback and the exchange', async () => {
    const issuer = await OidcStandIn.start({ console: 'client secret' });
    try {
      const settings = { issuer: issuer.issuer, client_id: 'console', client_secret: 'client secret' };
      await call(admin, 'GET /api/v4/sso', 404);
      await call(admin, 'PUT /api/v4/sso', 422, { body: { ...settings, issuer: 'http://127.0.0.1:9' } });
      await call(member, 'PUT /api/v4/sso', 403, { body: settings });
      await call(admin, 'PUT /api/v4/sso', 200, { body: settings });
      await call(member, 'GET /api/v4/sso', 200);
      await call(anonymous, 'GET /public/sso/accounts', 200, { query: `email=${ADMIN_EMAIL}` });
      await call(anonymous, 'GET /public/sso/accounts', 400);
      await call(anonymous, 'GET /public/sso/start', 404, { query: 'email=nobody@example.com' });
      const started = await call(anonymous, 'GET /public/sso/start', 302, { query: `email=${ADMIN_EMAIL}`, manual: true });
      const back = await issuer.signInAt(started.headers.get('location')!, ADMIN_EMAIL);
      const done = await call(anonymous, 'GET /public/sso/callback', 302, { query: back.search.slice(1), manual: true });
      await call(anonymous, 'GET /public/sso/callback', 403, { query: back.search.slice(1), manual: true });
      const code = done.headers.get('location')!.split('/').pop();
      await call(anonymous, 'POST /public/sso/exchange', 200, { body: { code } });
      await call(anonymous, 'POST /public/sso/exchange', 401, { body: { code } });
      await call(member, 'DELETE /api/v4/sso', 403);
      await call(admin, 'DELETE /api/v4/sso', 204);
    } finally {
      await issuer.close();
    }
  });
});

describe('SCIM provisioning', () => {
  it('the tokens, the discovery documents, Users and Groups, and their errors', async () => {
    await call(member, 'POST /api/v4/scim_tokens', 403, { body: { name: 'x' } });
    await call(admin, 'POST /api/v4/scim_tokens', 422, { body: { name: '' } });
    const made = await call(admin, 'POST /api/v4/scim_tokens', 201, { body: { name: 'Okta' } });
    await call(admin, 'GET /api/v4/scim_tokens', 200);
    await call(member, 'GET /api/v4/scim_tokens', 403);
    const scim = new ApiClient(service.url, { authorization: `Bearer ${made.body.token}` });
    const list = 'GET /scim/v2/{resource}';
    const one = (method: string) => `${method} /scim/v2/{resource}/{id}`;
    for (const resource of ['ServiceProviderConfig', 'ResourceTypes', 'Schemas']) await call(scim, list, 200, { resource });
    await call(scim, one('GET'), 200, { resource: 'ResourceTypes', id: 'User' });
    await call(scim, one('GET'), 404, { resource: 'Schemas', id: 'urn:nothing' });
    await call(scim, list, 404, { resource: 'Nothing' });
    await call(admin, list, 401, { resource: 'ServiceProviderConfig' });
    await call(scim, list, 200, { resource: 'Users', query: 'filter=userName%20eq%20%22nobody%40example.com%22' });
    await call(scim, list, 400, { resource: 'Users', query: 'filter=emails%20co%20%22x%22' });
    const user = await call(scim, 'POST /scim/v2/{resource}', 201, {
      resource: 'Users',
      body: { userName: 'scim-doc@example.com', name: { givenName: 'Doc', familyName: 'Umented' }, externalId: 'ext-1' },
    });
    const users = { resource: 'Users', id: user.body.id };
    await call(scim, 'POST /scim/v2/{resource}', 409, { resource: 'Users', body: { userName: 'scim-doc@example.com' } });
    await call(scim, 'POST /scim/v2/{resource}', 404, { resource: 'Schemas', body: { userName: 'x@example.com' } });
    await call(scim, one('GET'), 200, users);
    await call(scim, one('GET'), 404, { resource: 'Users', id: '01ARZ3NDEKTSV4RRFFQ69G5FAV' });
    await call(scim, one('PUT'), 200, { ...users, body: { userName: 'scim-doc@example.com', active: true } });
    await call(scim, one('PUT'), 400, { ...users, body: { userName: 'not an address' } });
    await call(scim, one('PATCH'), 200, {
      ...users,
      body: { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', value: { active: false } }] },
    });
    await call(scim, one('PATCH'), 400, { ...users, body: { Operations: [] } });
    await call(scim, list, 200, { resource: 'Groups', query: 'excludedAttributes=members' });
    await call(scim, list, 400, { resource: 'Groups', query: 'filter=id%20eq%20%22x%22' });
    const group = await call(scim, 'POST /scim/v2/{resource}', 201, {
      resource: 'Groups',
      body: { displayName: 'SCIM documented', members: [{ value: user.body.id }] },
    });
    const groups = { resource: 'Groups', id: group.body.id };
    await call(scim, 'POST /scim/v2/{resource}', 409, { resource: 'Groups', body: { displayName: 'SCIM documented' } });
    await call(scim, one('GET'), 200, groups);
    await call(scim, one('PUT'), 200, { ...groups, body: { displayName: 'SCIM documented', members: [] } });
    await call(scim, one('PATCH'), 200, {
      ...groups,
      body: { Operations: [{ op: 'add', path: 'members', value: [{ value: user.body.id }] }] },
    });
    await call(scim, one('PATCH'), 400, { ...groups, body: { Operations: [{ op: 'add', path: 'owners', value: [] }] } });
    await call(scim, one('DELETE'), 204, groups);
    await call(scim, one('DELETE'), 404, groups);
    await call(scim, one('DELETE'), 204, users);
    await call(scim, one('DELETE'), 404, users);
    await call(member, 'DELETE /api/v4/scim_tokens/{id}', 403, { id: made.body.id });
    await call(admin, 'DELETE /api/v4/scim_tokens/{id}', 204, { id: made.body.id });
    await call(admin, 'DELETE /api/v4/scim_tokens/{id}', 404, { id: made.body.id });
  });
});

describe('coverage', () => {
  it('exercised every route of the route table', () => {
    const missed = ROUTES.map(routeKey).filter((key) => !exercised.has(key));
    expect(missed).toEqual([]);
  });
});
