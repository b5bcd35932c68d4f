// SCIM 2.0 provisioning through the real server: tokens, the request sequences Okta and Microsoft
// Entra ID document for their provisioning, SCIM's error bodies, deactivation.
// @moto: token pointers (conditional puts), versioned saves of account users, teams and events.
// @module-tag moto
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client';
import { signupAccount, useService, type TestService } from '../support/runtime';

let service: TestService;
let scim: ApiClient;
let scimTokenId: string;

useService(async (started) => {
  service = started;
  const made = await service.admin.post('/api/v4/scim_tokens', { name: 'Okta' });
  scimTokenId = made.body.id as string;
  scim = new ApiClient(service.url, { authorization: `Bearer ${made.body.token}`, 'content-type': 'application/scim+json' });
});

const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
const patch = (path: string, operations: unknown[]) =>
  scim.request('PATCH', path, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: operations });
const unique = () => Math.random().toString(36).slice(2, 10);

describe('SCIM tokens', () => {
  it('are shown once, listed without the secret, and revoked', async () => {
    const made = await service.admin.post('/api/v4/scim_tokens', { name: 'Entra' });
    expect(made.status).toBe(201);
    expect(made.body.token).toMatch(/^scim_/);
    expect(made.body.scim_base_url).toBe(`${service.url}/scim/v2`);
    const list = await service.admin.get('/api/v4/scim_tokens');
    expect(list.status).toBe(200);
    const listed = list.body.data.find((t: { id: string }) => t.id === made.body.id);
    expect(listed).toMatchObject({ name: 'Entra', prefix_id: `sct_${made.body.id}` });
    expect(JSON.stringify(list.body)).not.toContain(made.body.token);
    const client = new ApiClient(service.url, { authorization: `Bearer ${made.body.token}` });
    expect((await client.get('/scim/v2/Users')).status).toBe(200);
    expect((await service.admin.delete(`/api/v4/scim_tokens/${made.body.id}`)).status).toBe(204);
    const refused = await client.get('/scim/v2/Users');
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: '401' });
  });

  it('authenticate /scim/v2 only, and nothing else authenticates there', async () => {
    expect((await scim.get('/api/v4/account_users')).status).toBe(401);
    const withKey = await service.admin.get('/scim/v2/Users');
    expect(withKey.status).toBe(401);
    expect(withKey.headers.get('content-type')).toContain('application/scim+json');
    expect(withKey.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: '401', detail: expect.any(String) });
  });

  it('are for admins (403) and scoped to their account (404 across accounts)', async () => {
    const member = await service.admin.post('/api/v4/account_users', {
      user_attributes: { name: 'Plain', emails_attributes: [{ email: `plain-${unique()}@example.com` }] },
    });
    const key = await service.admin.post('/api/v4/api_keys', { name: 't', account_user_id: member.body.id });
    const plain = new ApiClient(service.url, { authorization: `Bearer ${key.body.token}` });
    expect((await plain.post('/api/v4/scim_tokens', { name: 'x' })).status).toBe(403);
    expect((await plain.get('/api/v4/scim_tokens')).status).toBe(403);

    const other = await signupAccount(service, 'Scoped');
    const theirs = await other.client.post('/api/v4/scim_tokens', { name: 'theirs' });
    expect(theirs.status).toBe(201);
    expect((await service.admin.delete(`/api/v4/scim_tokens/${theirs.body.id}`)).status).toBe(404);
    // Their token sees their people, not ours.
    const theirScim = new ApiClient(service.url, { authorization: `Bearer ${theirs.body.token}` });
    const ours = await scim.post('/scim/v2/Users', {
      userName: `ours-${unique()}@example.com`,
      name: { givenName: 'O', familyName: 'Urs' },
    });
    expect((await theirScim.get(`/scim/v2/Users/${ours.body.id}`)).status).toBe(404);
    expect(
      (await theirScim.request('PATCH', `/scim/v2/Users/${ours.body.id}`, { Operations: [{ op: 'replace', value: { active: false } }] }))
        .status,
    ).toBe(404);
  });
});

describe("Okta's provisioning sequence", () => {
  it('probes, creates, reads, deactivates with a path-less replace, and replaces', async () => {
    const userName = `okta-${unique()}@example.com`;
    const probe = await scim.get(`/scim/v2/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}&startIndex=1&count=100`);
    expect(probe.status).toBe(200);
    expect(probe.body).toEqual({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: 0,
      startIndex: 1,
      itemsPerPage: 0,
      Resources: [],
    });

    const created = await scim.post('/scim/v2/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName,
      name: { givenName: 'Test', familyName: 'User' },
      emails: [{ primary: true, value: userName, type: 'work' }],
      displayName: 'Test User',
      locale: 'en-US',
      externalId: '00ujl29u0le5T6Aj10h7',
      groups: [],
      password: '1mz050nq',
      active: true,
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toContain('application/scim+json');
    expect(created.body).toMatchObject({
      userName,
      externalId: '00ujl29u0le5T6Aj10h7',
      active: true,
      name: { givenName: 'Test', familyName: 'User', formatted: 'Test User' },
      emails: [{ value: userName, type: 'work', primary: true }],
      meta: { resourceType: 'User', location: `${service.url}/scim/v2/Users/${created.body.id}`, version: 'W/"2"' },
    });
    const id = created.body.id as string;

    // The filter's value in another case finds them (Okta and Entra expect it).
    const found = await scim.get(`/scim/v2/Users?filter=${encodeURIComponent(`userName eq "${userName.toUpperCase()}"`)}`);
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0].id).toBe(id);
    expect((await scim.get(`/scim/v2/Users/${id}`)).body.userName).toBe(userName);
    const v4 = await service.admin.get(`/api/v4/account_users/${id}`);
    expect(v4.body).toMatchObject({ deactivated_at: null, user: { name: 'Test User' } });

    const deactivated = await patch(`/scim/v2/Users/${id}`, [{ op: 'replace', value: { active: false } }]);
    expect(deactivated.status).toBe(200);
    expect(deactivated.body.active).toBe(false);
    expect((await service.admin.get(`/api/v4/account_users/${id}`)).body.deactivated_at).toEqual(expect.any(String));

    const replaced = await scim.put(`/scim/v2/Users/${id}`, {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      id,
      userName,
      name: { givenName: 'Another', familyName: 'Name' },
      emails: [{ primary: true, value: userName, type: 'work' }],
      phoneNumbers: [{ value: '+1 415 555 2671', type: 'mobile' }],
      active: true,
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({
      active: true,
      name: { givenName: 'Another', familyName: 'Name', formatted: 'Another Name' },
      phoneNumbers: [{ value: '+14155552671', type: 'mobile', primary: true }],
    });
    // A replace leaves out what it does not send: the externalId is gone.
    expect(replaced.body.externalId).toBeUndefined();

    // The audit trail names the SCIM token as the actor of each change it made.
    const trail = await service.admin.get(`/api/v4/audit_events?object_id=${id}`);
    expect(trail.status).toBe(200);
    const events = trail.body.data as { action: string; actor_type: string; actor_id: string; changes: Record<string, unknown> }[];
    expect(events.map((e) => e.action).sort()).toEqual(expect.arrayContaining(['create', 'update']));
    for (const event of events) expect(event).toMatchObject({ actor_type: 'scim_token', actor_id: scimTokenId });
    expect(events.some((e) => 'deactivated_at' in e.changes)).toBe(true);
  });

  it('pushes a group, then adds and removes members', async () => {
    const a = await scim.post('/scim/v2/Users', { userName: `ga-${unique()}@example.com`, name: { givenName: 'G', familyName: 'A' } });
    const b = await scim.post('/scim/v2/Users', { userName: `gb-${unique()}@example.com`, name: { givenName: 'G', familyName: 'B' } });
    const name = `Okta group ${unique()}`;
    const group = await scim.post('/scim/v2/Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: name,
      members: [],
    });
    expect(group.status).toBe(201);
    expect(group.body).toMatchObject({ displayName: name, members: [], meta: { resourceType: 'Group' } });
    const id = group.body.id as string;
    const added = await patch(`/scim/v2/Groups/${id}`, [
      { op: 'add', path: 'members', value: [{ value: a.body.id, display: a.body.userName }, { value: b.body.id }] },
    ]);
    expect(added.status).toBe(200);
    expect(added.body.members.map((m: { value: string }) => m.value)).toEqual([a.body.id, b.body.id]);
    const team = await service.admin.get(`/api/v4/teams/${id}`);
    expect(team.body).toMatchObject({ name, member_account_user_ids: [a.body.id, b.body.id] });

    const removed = await patch(`/scim/v2/Groups/${id}`, [{ op: 'remove', path: `members[value eq "${a.body.id}"]` }]);
    expect(removed.body.members.map((m: { value: string }) => m.value)).toEqual([b.body.id]);
    const renamed = await patch(`/scim/v2/Groups/${id}`, [{ op: 'replace', value: { id, displayName: `${name} renamed` } }]);
    expect(renamed.body.displayName).toBe(`${name} renamed`);
    const listed = await scim.get(`/scim/v2/Groups?filter=${encodeURIComponent(`displayName eq "${name} renamed"`)}`);
    expect(listed.body.totalResults).toBe(1);
    expect((await scim.request('DELETE', `/scim/v2/Groups/${id}`)).status).toBe(204);
    expect((await service.admin.get(`/api/v4/teams/${id}`)).status).toBe(404);
  });
});

describe("Microsoft Entra ID's provisioning sequence", () => {
  it('creates, patches with Replace and "False", and deletes', async () => {
    const userName = `entra-${unique()}@example.com`;
    const probe = await scim.get(`/scim/v2/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`);
    expect(probe.body.totalResults).toBe(0);
    const created = await scim.post('/scim/v2/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
      externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
      userName,
      active: true,
      emails: [{ primary: true, type: 'work', value: userName }],
      meta: { resourceType: 'User' },
      name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
      roles: [],
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const again = await scim.post('/scim/v2/Users', { userName, name: { givenName: 'x' } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      schemas: [ERROR_SCHEMA],
      status: '409',
      scimType: 'uniqueness',
      detail: expect.stringContaining(userName),
    });

    const newAddress = `entra-new-${unique()}@example.com`;
    const changed = await patch(`/scim/v2/Users/${id}`, [
      { op: 'Replace', path: 'emails[type eq "work"].value', value: newAddress },
      { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
      { op: 'Add', path: 'phoneNumbers[type eq "mobile"].value', value: '+14155552671' },
      { op: 'Replace', path: 'externalId', value: 'changed-external-id' },
    ]);
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      userName: newAddress,
      externalId: 'changed-external-id',
      name: { familyName: 'updatedFamilyName' },
      phoneNumbers: [{ value: '+14155552671', type: 'mobile' }],
    });
    // The old address is free again: someone else may have it.
    expect((await scim.get(`/scim/v2/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`)).body.totalResults).toBe(0);

    const off = await patch(`/scim/v2/Users/${id}`, [{ op: 'Replace', path: 'active', value: 'False' }]);
    expect(off.body.active).toBe(false);
    const on = await patch(`/scim/v2/Users/${id}`, [{ op: 'replace', path: 'active', value: 'True' }]);
    expect(on.body.active).toBe(true);

    const group = await scim.post('/scim/v2/Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
      displayName: `Entra group ${unique()}`,
      members: [{ value: id }],
    });
    expect(group.status).toBe(201);
    const withoutMembers = await scim.get(`/scim/v2/Groups/${group.body.id}?excludedAttributes=members`);
    expect(withoutMembers.body.members).toBeUndefined();
    const removed = await patch(`/scim/v2/Groups/${group.body.id}`, [
      { op: 'Remove', path: 'members', value: [{ $ref: null, value: id }] },
    ]);
    expect(removed.body.members).toEqual([]);

    expect((await scim.request('DELETE', `/scim/v2/Users/${id}`)).status).toBe(204);
    expect((await scim.get(`/scim/v2/Users/${id}`)).status).toBe(404);
    expect((await service.admin.get(`/api/v4/account_users/${id}`)).status).toBe(404);
  });

  it('answers the discovery endpoints', async () => {
    const config = await scim.get('/scim/v2/ServiceProviderConfig');
    expect(config.status).toBe(200);
    expect(config.body).toMatchObject({ patch: { supported: true }, bulk: { supported: false }, filter: { supported: true } });
    const types = await scim.get('/scim/v2/ResourceTypes');
    expect(types.body.Resources.map((t: { id: string }) => t.id)).toEqual(['User', 'Group']);
    const schemas = await scim.get('/scim/v2/Schemas');
    expect(schemas.body.totalResults).toBe(2);
  });
});

describe('SCIM errors', () => {
  it('answer in SCIM error bodies naming the field, and change nothing', async () => {
    const cases: [Promise<{ status: number; body: Record<string, unknown> }>, number, string | undefined, string][] = [
      [scim.get(`/scim/v2/Users?filter=${encodeURIComponent('emails co "x"')}`), 400, 'invalidFilter', 'filter'],
      [scim.get(`/scim/v2/Users?filter=${encodeURIComponent('name.givenName eq "x"')}`), 400, 'invalidFilter', 'userName'],
      [scim.post('/scim/v2/Users', { name: { givenName: 'No user name' } }), 400, 'invalidValue', 'userName'],
      [scim.post('/scim/v2/Users', { userName: 'not-an-address' }), 400, 'invalidValue', 'userName'],
      [
        scim.post('/scim/v2/Users', { userName: `p-${unique()}@example.com`, phoneNumbers: [{ value: '12' }] }),
        400,
        'invalidValue',
        'phoneNumbers',
      ],
      [scim.post('/scim/v2/Users', '{"userName":'), 400, 'invalidSyntax', 'JSON'],
      [scim.get('/scim/v2/Users/01ARZ3NDEKTSV4RRFFQ69G5FAV'), 404, undefined, 'User'],
      [scim.post('/scim/v2/Groups', { displayName: '' }), 400, 'invalidValue', 'displayName'],
      [
        scim.post('/scim/v2/Groups', { displayName: `g-${unique()}`, members: [{ value: '01ARZ3NDEKTSV4RRFFQ69G5FAV' }] }),
        400,
        'invalidValue',
        'members',
      ],
    ];
    for (const [pending, status, scimType, named] of cases) {
      const res = await pending;
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.schemas).toEqual([ERROR_SCHEMA]);
      expect(res.body.status).toBe(String(status));
      expect(res.body.scimType).toBe(scimType);
      expect(String(res.body.detail)).toContain(named);
    }
    const user = await scim.post('/scim/v2/Users', { userName: `e-${unique()}@example.com` });
    const before = await scim.get(`/scim/v2/Users/${user.body.id}`);
    const patches: [unknown[], string][] = [
      [[{ op: 'explode', path: 'active', value: false }], 'invalidSyntax'],
      [[{ op: 'replace', path: 'active', value: 'maybe' }], 'invalidValue'],
      [[{ op: 'replace', path: 'favouriteColour', value: 'blue' }], 'invalidPath'],
      [[{ op: 'remove' }], 'noTarget'],
      [[], 'invalidSyntax'],
    ];
    for (const [operations, scimType] of patches) {
      const res = await patch(`/scim/v2/Users/${user.body.id}`, operations);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.scimType).toBe(scimType);
    }
    expect((await scim.get(`/scim/v2/Users/${user.body.id}`)).body).toEqual(before.body);
  });
});

describe('deactivation', () => {
  it('refuses sign-in and existing sessions, and activating again restores them', async () => {
    const userName = `signin-${unique()}@example.com`;
    const created = await scim.post('/scim/v2/Users', { userName, name: { givenName: 'Sign', familyName: 'In' } });
    const id = created.body.id as string;
    // The person chooses a password through the reset flow; here an admin's key acts as them instead.
    const key = await service.admin.post('/api/v4/api_keys', { name: 'session', account_user_id: id });
    const asThem = new ApiClient(service.url, { authorization: `Bearer ${key.body.token}` });
    expect((await asThem.get('/api/v4/account_users')).status).toBe(200);
    await patch(`/scim/v2/Users/${id}`, [{ op: 'replace', path: 'active', value: false }]);
    expect((await asThem.get('/api/v4/account_users')).status).toBe(401);
    await patch(`/scim/v2/Users/${id}`, [{ op: 'replace', path: 'active', value: true }]);
    expect((await asThem.get('/api/v4/account_users')).status).toBe(200);
  });
});
