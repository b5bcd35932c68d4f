// One account user per person and account, however many requests add the person at once: two
// admins, single sign-on's first sign-ins, a SCIM create retried (lib/account-users/store.ts,
// claimMembership). The account-user index cannot decide it (it is eventually consistent on
// DynamoDB, and every racer reads it before any writes).
import { describe, expect, it } from 'vitest';
import { provisionAccountUser } from '../../lib/account-users/provision-account-user';
import { putItem } from '../../lib/store/items';
import { testClock } from '../support/dependencies';
import { signupAccount, useService, type TestService } from '../support/runtime';

let service: TestService;
let accountId: string;
useService(async (started) => {
  service = started;
  accountId = service.runtime.created!.account.id;
});

const unique = (name: string) => `${name}-${Math.random().toString(36).slice(2, 8)}@example.com`;

/** A person who exists (an account user of another account) and so joins this one by e-mail. */
async function personElsewhere(): Promise<{ email: string; userId: string }> {
  const other = await signupAccount(service, 'Elsewhere');
  const email = unique('pat');
  const res = await other.client.post('/api/v4/account_users', {
    user_attributes: { name: 'Pat Elsewhere', emails_attributes: [{ email }] },
  });
  expect(res.status).toBe(201);
  return { email, userId: res.body.user.id as string };
}

async function accountUsersOf(userId: string): Promise<string[]> {
  const res = await service.admin.get('/api/v4/account_users?limit=100');
  expect(res.status).toBe(200);
  return (res.body.data as { id: string; user: { id: string } }[]).filter((each) => each.user.id === userId).map((each) => each.id);
}

describe('one account user per person and account', () => {
  it('two admins adding the same person at once make one account user; the others get 409', async () => {
    const { email, userId } = await personElsewhere();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        service.admin.post('/api/v4/account_users', { user_attributes: { name: 'Pat', emails_attributes: [{ email }] } }),
      ),
    );
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    for (const res of answers.filter((each) => each.status === 409)) {
      expect(JSON.stringify(res.body)).toMatch(/already in this account|being added to this account/);
    }
    const created = answers.find((res) => res.status === 201)!;
    expect(await accountUsersOf(userId)).toEqual([created.body.id]);
  });

  it('first sign-ins provisioning the same person at once all get the one account user', async () => {
    const { email, userId } = await personElsewhere();
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () =>
        provisionAccountUser(accountId, {
          email,
          name: 'Pat',
          roles: { admin: false, billing: false, broadcaster: false, communicator: false },
        }),
      ),
    );
    const ids = new Set(results.filter((each) => each.status === 'fulfilled').map((each) => each.value.id));
    expect(ids.size).toBe(1);
    for (const each of results) {
      if (each.status === 'rejected') expect(String(each.reason)).toMatch(/being added to this account/);
    }
    expect(await accountUsersOf(userId)).toEqual([...ids]);
  });

  it('a claim left by a crash before its account user is taken over after a minute, not before', async () => {
    const { email, userId } = await personElsewhere();
    testClock.freeze();
    // What a request that died between its claim and its account user leaves behind.
    await putItem({
      pk: `USER#${userId}#ACU#${accountId}`,
      sk: '#',
      account_user_id: '01JZZZZZZZZZZZZZZZZZZZZZZZ',
      claimed_at: testClock.now(),
    });
    const body = { user_attributes: { name: 'Pat', emails_attributes: [{ email }] } };
    const early = await service.admin.post('/api/v4/account_users', body);
    expect(early.status).toBe(409);
    expect(JSON.stringify(early.body)).toMatch(/being added to this account/);
    expect(await accountUsersOf(userId)).toEqual([]);

    testClock.advance(60_000);
    const later = await service.admin.post('/api/v4/account_users', body);
    expect(later.status).toBe(201);
    expect(await accountUsersOf(userId)).toEqual([later.body.id]);
  });

  it('a removed account user frees the place: the person can be added again', async () => {
    const { email, userId } = await personElsewhere();
    const body = { user_attributes: { name: 'Pat', emails_attributes: [{ email }] } };
    const first = await service.admin.post('/api/v4/account_users', body);
    expect(first.status).toBe(201);
    expect((await service.admin.post('/api/v4/account_users', body)).status).toBe(409);
    expect((await service.admin.delete(`/api/v4/account_users/${first.body.id}`)).status).toBe(204);
    const again = await service.admin.post('/api/v4/account_users', body);
    expect(again.status).toBe(201);
    expect(await accountUsersOf(userId)).toEqual([again.body.id]);
  });
});
