// Data access for users, their e-mail addresses and account users (keys and patterns:
// lib/store/ACCESS-PATTERNS.md, "Platform entities").
//   user            USER#<id> / #                      (global: one person, many accounts)
//   e-mail claim    EMAIL#<lower-cased address> / #   (global uniqueness; login by e-mail)
//   account user    A#<acc>#ACU / <id>                 gsi1: USER#<userId>#ACU / <accountId>
//   membership      USER#<userId>#ACU#<acc> / #         {account_user_id, claimed_at}: one account user per person and account
//   Slack link      A#<acc>#SLACKUSER / <Slack user id>  {account_user_id}: who a Slack user acts as (one per Slack user)
import { DeleteCommand, UpdateCommand } from '../store/commands';
import { now, sleep } from '../clock';
import { db, tableName } from '../store/client';
import { entityStore, type Ref } from '../store/entity-store';
import { finishEvent, prepareUpdate, withoutCarried, type AuditTarget } from '../store/audit-carried';
import { deleteItem, fromItem, getItem, isConditionFailure, putIfVersion, putItem, putNew } from '../store/items';
import type { AccountUserRecord, UserRecord } from './records';
import { profileOf } from './records';

const userKey = (userId: string) => ({ pk: `USER#${userId}`, sk: '#' });
const emailKey = (email: string) => ({ pk: `EMAIL#${email.trim().toLowerCase()}`, sk: '#' });
const accountUsersOfUserPartition = (userId: string) => `USER#${userId}#ACU`;
const membershipKey = (userId: string, accountId: string) => ({ pk: `USER#${userId}#ACU#${accountId}`, sk: '#' });
const slackLinkKey = (accountId: string, slackUserId: string) => ({ pk: `A#${accountId}#SLACKUSER`, sk: slackUserId });

const accountUsers = entityStore<AccountUserRecord>({
  kind: 'accountUser',
  audit: { objectType: 'account_user' },
  indexKeys: (record) => ({ gsi1pk: accountUsersOfUserPartition(record.user_id), gsi1sk: record.account_id }),
});

// ── users ──────────────────────────────────────────────────────────────────────────────────────

export async function getUser(userId: string): Promise<UserRecord | null> {
  const item = await getItem(userKey(userId));
  return item ? fromItem<UserRecord>(withoutCarried(item)) : null;
}

/** For a read combined with others in one round trip (authentication reads the account user and the
 * user's password generation together). */
export function userRef(userId: string): Ref<UserRecord> {
  return { key: userKey(userId), decode: (item) => fromItem<UserRecord>(withoutCarried(item)) };
}

export async function insertUser(user: UserRecord): Promise<void> {
  if (!(await putNew({ ...userKey(user.id), ...user }))) throw new Error(`user ${user.id} already exists`);
}

/**
 * Saves a user whose stored version is `user.version - 1`; false when another write came first.
 * `audit`: the account whose trail records the change (a person is global; the request's account
 * tells which trail), as a change of that account user.
 */
export async function saveUser(user: UserRecord, audit?: AuditTarget): Promise<boolean> {
  const item = { ...userKey(user.id), ...user };
  const prepared = audit ? await prepareUpdate(userKey(user.id), item, audit) : null;
  if (!(await putIfVersion(item, user.version - 1))) return false;
  await finishEvent(prepared);
  return true;
}

export async function removeUser(userId: string): Promise<void> {
  await deleteItem(userKey(userId));
}

// ── e-mail claims ──────────────────────────────────────────────────────────────────────────────

/** Longer than any address can be (RFC 5321: 254): no claim has it, and its key would pass the
 * store's 2048-byte limit on a partition key (a login with a megabyte of username). */
const MAX_ADDRESS_LENGTH = 320;

/** The user who owns an address, or null. */
export async function getUserIdByEmail(email: string): Promise<string | null> {
  if (email.length > MAX_ADDRESS_LENGTH) return null;
  const item = await getItem(emailKey(email));
  return item ? String(item.user_id) : null;
}

/** Claims an address for a user; false when another user holds it. */
export async function claimEmail(email: string, userId: string): Promise<boolean> {
  if (await putNew({ ...emailKey(email), user_id: userId })) return true;
  return (await getUserIdByEmail(email)) === userId;
}

export async function releaseEmail(email: string, userId: string): Promise<void> {
  const holder = await getUserIdByEmail(email);
  if (holder === userId) await deleteItem(emailKey(email));
}

// ── account users ──────────────────────────────────────────────────────────────────────────────

export const getAccountUser = accountUsers.get;
/** Account users by id, in the order asked; absent ones are left out. */
export const getAccountUsers = accountUsers.getMany;
/** For a read combined with others in one round trip (lib/store/entity-store.ts getEach). */
export const accountUserRef = accountUsers.ref;
export const accountUserCollection = accountUsers.collection;

/** The person already has an account user in the account: `existing` is its id. */
export class AlreadyMember extends Error {
  constructor(readonly existing: string) {
    super(`the person is already an account user of this account (${existing})`);
  }
}

/** Another request is adding the person to the account right now, and its account user is not written yet. */
export class MembershipPending extends Error {
  constructor() {
    super('the person is being added to this account by another request; try again');
  }
}

/** A claim whose account user never appeared for this long was left by a crash between the two writes. */
const CLAIM_ABANDONED_MS = 60_000;
/** How long a second request waits for the first one's account user before it gives up (MembershipPending). */
const CLAIM_WAITS_MS = [25, 50, 100, 200, 400];

/**
 * Claims the person's one place in the account for `accountUserId`: a conditional put on the
 * (person, account) key, so that two requests adding the same person at once (single sign-on's
 * first sign-ins, a SCIM create retried, two admins) cannot both make an account user; the
 * account-user index (gsi1) is eventually consistent and cannot decide it. Throws AlreadyMember when
 * another account user holds it (after waiting briefly for one being written), MembershipPending
 * when that one is still not written.
 */
async function claimMembership(userId: string, accountId: string, accountUserId: string): Promise<void> {
  const key = membershipKey(userId, accountId);
  for (let attempt = 0; ; attempt++) {
    if (await putNew({ ...key, account_user_id: accountUserId, claimed_at: now() })) return;
    const claim = await getItem(key);
    if (!claim) continue; // released in between: claim again
    const holder = String(claim.account_user_id);
    if (holder === accountUserId) return;
    if (await accountUsers.get(accountId, holder)) throw new AlreadyMember(holder);
    if (now() - Number(claim.claimed_at ?? 0) >= CLAIM_ABANDONED_MS) {
      // Its account user never came (or was removed without its claim): take the claim over, once.
      const taken = await db()
        .send(
          new UpdateCommand({
            TableName: tableName(),
            Key: key,
            UpdateExpression: 'SET account_user_id = :mine, claimed_at = :at',
            ConditionExpression: 'account_user_id = :theirs',
            ExpressionAttributeValues: { ':mine': accountUserId, ':at': now(), ':theirs': holder },
          }),
        )
        .then(
          () => true,
          (error: unknown) => {
            if (isConditionFailure(error)) return false;
            throw error;
          },
        );
      if (taken) return;
      continue;
    }
    if (attempt >= CLAIM_WAITS_MS.length) throw new MembershipPending();
    await sleep(CLAIM_WAITS_MS[attempt]);
  }
}

/** Writes a new account user, once per person and account (AlreadyMember, MembershipPending otherwise). */
export async function insertAccountUser(record: AccountUserRecord): Promise<void> {
  await claimMembership(record.user_id, record.account_id, record.id);
  if (!(await accountUsers.insert(record))) throw new Error(`account user ${record.id} already exists`);
}

/** Removes an account user and its claim on the (person, account) place; the removed record, or null. */
export async function removeAccountUser(accountId: string, id: string): Promise<AccountUserRecord | null> {
  const removed = await accountUsers.remove(accountId, id);
  if (removed) {
    await db()
      .send(
        new DeleteCommand({
          TableName: tableName(),
          Key: membershipKey(removed.user_id, accountId),
          ConditionExpression: 'account_user_id = :id',
          ExpressionAttributeValues: { ':id': id },
        }),
      )
      .catch((error: unknown) => {
        if (!isConditionFailure(error)) throw error;
      });
  }
  return removed;
}

export const saveAccountUser = (record: AccountUserRecord) => accountUsers.save(record);

/** Every account user of a user (one per account the person belongs to). */
export async function listAccountUsersOfUser(userId: string): Promise<AccountUserRecord[]> {
  return accountUsers.query(accountUsersOfUserPartition(userId), { index: 'gsi1' });
}

/** The person's account user in this account (docs/api.md#ids: a user id names it), or null. */
export async function getAccountUserOfUser(userId: string, accountId: string): Promise<AccountUserRecord | null> {
  const found = await accountUsers.query(accountUsersOfUserPartition(userId), { index: 'gsi1', skBetween: [accountId, accountId] });
  return found[0] ?? null;
}

/** Refreshes the profile copy held by each of the user's account users. */
export async function refreshProfileCopies(user: UserRecord): Promise<void> {
  const profile = profileOf(user);
  const copies = await listAccountUsersOfUser(user.id);
  await Promise.all(
    copies.map((copy) =>
      db()
        .send(
          new UpdateCommand({
            TableName: tableName(),
            Key: accountUsers.key(copy.account_id, copy.id),
            UpdateExpression: 'SET #user = :user',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#user': 'user' },
            ExpressionAttributeValues: { ':user': profile },
          }),
        )
        .catch((error) => {
          if (!isConditionFailure(error)) throw error;
        }),
    ),
  );
}

// ── Slack links ────────────────────────────────────────────────────────────────────────────────

/** The account user a Slack user of the connected workspace acts as, or null. */
export async function getAccountUserIdBySlackUser(accountId: string, slackUserId: string): Promise<string | null> {
  const item = await getItem(slackLinkKey(accountId, slackUserId));
  return item ? String(item.account_user_id) : null;
}

/** Links a Slack user to an account user; false when it is linked to another one. */
export async function claimSlackUser(accountId: string, slackUserId: string, accountUserId: string): Promise<boolean> {
  if (await putNew({ ...slackLinkKey(accountId, slackUserId), account_user_id: accountUserId })) return true;
  return (await getAccountUserIdBySlackUser(accountId, slackUserId)) === accountUserId;
}

/** Points a Slack user at an account user whatever the link held (a stale link taken over). */
export async function putSlackUserLink(accountId: string, slackUserId: string, accountUserId: string): Promise<void> {
  await putItem({ ...slackLinkKey(accountId, slackUserId), account_user_id: accountUserId });
}

export async function releaseSlackUser(accountId: string, slackUserId: string, accountUserId: string): Promise<void> {
  if ((await getAccountUserIdBySlackUser(accountId, slackUserId)) === accountUserId) await deleteItem(slackLinkKey(accountId, slackUserId));
}
