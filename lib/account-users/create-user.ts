// A new person (the user, across accounts): their e-mail addresses claimed first, so two people
// cannot share one. Shared by the admin's create (create-account-user.ts), signup and single sign-on.
import { hashPassword } from '../auth/passwords';
import { Conflict } from '../http/errors';
import { newId } from '../ids';
import type { UserRecord } from './records';
import { claimEmail, insertUser, releaseEmail } from './store';

export type NewUser = Pick<UserRecord, 'name' | 'emails' | 'phones'> &
  Partial<Pick<UserRecord, 'time_zone' | 'notify_push' | 'notify_email' | 'notify_sms' | 'notify_voice' | 'notify_slack'>>;

/** Creates a person (new users notify by push and e-mail, not SMS or voice, unless told otherwise);
 * throws Conflict when an address already belongs to someone. */
export async function createUser(details: NewUser, password: string): Promise<UserRecord> {
  const id = newId();
  const claimed: string[] = [];
  for (const entry of details.emails) {
    if (!(await claimEmail(entry.email, id))) {
      await Promise.all(claimed.map((email) => releaseEmail(email, id)));
      throw new Conflict(`email ${entry.email} is already taken`);
    }
    claimed.push(entry.email);
  }
  const now = new Date().toISOString();
  const user: UserRecord = {
    id,
    name: details.name,
    time_zone: details.time_zone ?? 'UTC',
    notify_push: details.notify_push ?? true,
    notify_email: details.notify_email ?? true,
    notify_sms: details.notify_sms ?? false,
    notify_voice: details.notify_voice ?? false,
    notify_slack: details.notify_slack ?? false,
    emails: details.emails,
    phones: details.phones,
    password_hash: await hashPassword(password),
    created_at: now,
    updated_at: now,
    version: 1,
  };
  await insertUser(user);
  return user;
}
