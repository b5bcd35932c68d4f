// Data access for users, their e-mail addresses and account users.
//   user            USER#<id> / #                      (global: one person, many accounts)
//   e-mail claim    EMAIL#<lower-cased address> / #   (global uniqueness; login by e-mail)
//   account user    A#<acc>#ACU / <id>                 gsi1: USER#<userId>#ACU / <accountId>
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../store/client';
import { insertEntity, loadEntity, removeEntity, saveEntity } from '../store/entities';
import {
  ENTITY_TYPES,
  deleteItem,
  entityKey,
  fromItem,
  getItem,
  isConditionFailure,
  putIfVersion,
  putNew,
  queryItems,
} from '../store/items';
import type { AccountUserRecord, UserRecord } from './records';
import { profileOf } from './records';

const TYPE = ENTITY_TYPES.accountUser;

export const userKey = (userId: string) => ({ pk: `USER#${userId}`, sk: '#' });
export const emailKey = (email: string) => ({ pk: `EMAIL#${email.trim().toLowerCase()}`, sk: '#' });

export async function getUser(userId: string): Promise<UserRecord | null> {
  const item = await getItem(userKey(userId));
  return item ? fromItem<UserRecord>(item) : null;
}

export async function putNewUser(user: UserRecord): Promise<void> {
  if (!(await putNew({ ...userKey(user.id), ...user }))) throw new Error(`user ${user.id} already exists`);
}

/** Saves a user whose stored version is `user.version - 1`; false when another write came first. */
export async function saveUser(user: UserRecord): Promise<boolean> {
  return putIfVersion({ ...userKey(user.id), ...user }, user.version - 1);
}

/** The user who owns an address, or null. */
export async function userIdByEmail(email: string): Promise<string | null> {
  const item = await getItem(emailKey(email));
  return item ? String(item.user_id) : null;
}

/** Claims an address for a user; false when another user holds it. */
export async function claimEmail(email: string, userId: string): Promise<boolean> {
  if (await putNew({ ...emailKey(email), user_id: userId })) return true;
  return (await userIdByEmail(email)) === userId;
}

export async function releaseEmail(email: string, userId: string): Promise<void> {
  const holder = await userIdByEmail(email);
  if (holder === userId) await deleteItem(emailKey(email));
}

export async function getAccountUser(accountId: string, id: string): Promise<AccountUserRecord | null> {
  return loadEntity<AccountUserRecord>(accountId, TYPE, id);
}

const indexKeysOf = (record: AccountUserRecord) => ({
  gsi1pk: `USER#${record.user_id}#ACU`,
  gsi1sk: record.account_id,
});

export async function createAccountUserRecord(record: AccountUserRecord): Promise<void> {
  if (!(await insertEntity(TYPE, record, { indexKeys: indexKeysOf(record) }))) {
    throw new Error(`account user ${record.id} already exists`);
  }
}

export async function saveAccountUser(record: AccountUserRecord): Promise<boolean> {
  return saveEntity(TYPE, record, { indexKeys: indexKeysOf(record) });
}

export async function deleteAccountUserRecord(accountId: string, id: string): Promise<AccountUserRecord | null> {
  return removeEntity<AccountUserRecord>(accountId, TYPE, id);
}

/** Every account user of a user (one per account the person belongs to). */
export async function accountUsersOfUser(userId: string): Promise<AccountUserRecord[]> {
  const items = await queryItems(`USER#${userId}#ACU`, { index: 'gsi1' });
  return items.map((item) => fromItem<AccountUserRecord>(item));
}

export async function accountUserOfUserInAccount(userId: string, accountId: string): Promise<AccountUserRecord | null> {
  const items = await queryItems(`USER#${userId}#ACU`, { index: 'gsi1', skBetween: [accountId, accountId] });
  return items[0] ? fromItem<AccountUserRecord>(items[0]) : null;
}

/** Refreshes the profile copy held by each of the user's account users. */
export async function refreshProfileCopies(user: UserRecord): Promise<void> {
  const profile = profileOf(user);
  const copies = await accountUsersOfUser(user.id);
  await Promise.all(
    copies.map((copy) =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: entityKey(copy.account_id, TYPE, copy.id),
          UpdateExpression: 'SET #user = :user',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#user': 'user' },
          ExpressionAttributeValues: { ':user': profile },
        }),
      ).catch((error) => {
        if (!isConditionFailure(error)) throw error;
      }),
    ),
  );
}
