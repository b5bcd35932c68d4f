// An account user made without an admin's request, by a person the account's identity provider
// vouches for (single sign-on with create_users, lib/sso; SCIM provisioning, lib/scim): the person of that address joins the
// account, or a new person is made. A new person gets a generated password that nobody is told:
// they sign in through their identity provider (or choose a password with "Forgot password?").
import { generatePassword } from '../auth/passwords';
import { nowIso } from '../clock';
import { Conflict } from '../http/errors';
import type { Roles } from '../http/principal';
import { newId } from '../ids';
import { createUser } from './create-user';
import { profileOf, type AccountUserRecord, type PhoneRecord, type UserRecord } from './records';
import {
  AlreadyMember,
  getAccountUser,
  getAccountUserOfUser,
  getUser,
  getUserIdByEmail,
  insertAccountUser,
  MembershipPending,
} from './store';

export interface ProvisionedPerson {
  email: string;
  name: string;
  roles: Roles;
  /** Further addresses and phone numbers of a new person (a person who exists keeps their own). */
  otherEmails?: string[];
  phones?: PhoneRecord[];
  /** A new person's time zone (IANA; an importer brings the one the person had there). */
  timeZone?: string;
}

export async function provisionAccountUser(accountId: string, person: ProvisionedPerson): Promise<AccountUserRecord> {
  const ownerId = await getUserIdByEmail(person.email);
  let user: UserRecord | null = ownerId ? await getUser(ownerId) : null;
  if (ownerId && !user) throw new Conflict('the e-mail address is being claimed by another request; try again');
  if (user) {
    const existing = await getAccountUserOfUser(user.id, accountId);
    if (existing) return existing;
  } else {
    user = await createUser(
      {
        name: person.name,
        emails: [person.email, ...(person.otherEmails ?? [])].map((email, index) => ({ id: newId(), email, primary: index === 0 })),
        phones: person.phones ?? [],
        ...(person.timeZone ? { time_zone: person.timeZone } : {}),
      },
      generatePassword(),
    );
  }
  const at = nowIso();
  const record: AccountUserRecord = {
    id: newId(),
    account_id: accountId,
    user_id: user.id,
    roles: { ...person.roles },
    notification_rule_id: null,
    slack_user_id: null,
    user: profileOf(user),
    created_at: at,
    updated_at: at,
    version: 1,
  };
  try {
    await insertAccountUser(record);
  } catch (error) {
    // Another request (a second first sign-in, a retried SCIM create) added the person first.
    if (error instanceof AlreadyMember) {
      const existing = await getAccountUser(accountId, error.existing);
      if (existing) return existing;
    }
    if (error instanceof AlreadyMember || error instanceof MembershipPending) throw new Conflict(error.message);
    throw error;
  }
  return record;
}
