// Create an account user (admin only): claim the e-mail addresses and create the person (or join
// an existing person to this account), then the account user, its team memberships, the welcome.
import { generatePassword } from '../auth/passwords';
import { requireAdmin } from '../auth/permissions';
import { definedOnly } from '../http/changes';
import { Conflict, Invalid } from '../http/errors';
import { noRoles, type Principal } from '../http/principal';
import { resolveReferences } from '../http/references';
import { parseInput } from '../http/validate';
import { newId } from '../ids';
import { deliver } from '../notify/personal-messages';
import { resolveTimeZone } from '../oncall/time-zones';
import { addMemberships } from '../teams/membership';
import { applyEmailChanges, applyPhoneChanges } from './contacts';
import { profileOf, type AccountUserRecord, type UserRecord } from './records';
import { createAccountUserInput } from './schemas';
import { linkSlackUser } from './slack-link';
import { createUser } from './create-user';
import {
  AlreadyMember,
  getAccountUserOfUser,
  getUser,
  getUserIdByEmail,
  insertAccountUser,
  MembershipPending,
  releaseSlackUser,
} from './store';

/** The one existing person the addresses belong to, or null when they are all free. */
async function existingOwner(emails: { email: string }[]): Promise<string | null> {
  const owners = new Set<string>();
  for (const entry of emails) {
    const owner = await getUserIdByEmail(entry.email);
    if (owner) owners.add(owner);
  }
  if (owners.size > 1) throw new Conflict('the e-mail addresses belong to different existing users');
  return [...owners][0] ?? null;
}

export async function createAccountUser(principal: Principal, body: unknown): Promise<AccountUserRecord> {
  requireAdmin(principal, 'create account users');
  const input = parseInput(createAccountUserInput, body);
  const attributes = input.user_attributes;
  const emails = applyEmailChanges([], attributes.emails_attributes, 'user_attributes.emails_attributes');
  const phones = await applyPhoneChanges([], attributes.phones_attributes ?? [], 'user_attributes.phones_attributes');
  if (attributes.time_zone !== undefined && !resolveTimeZone(attributes.time_zone)) {
    throw new Invalid(`user_attributes.time_zone is not a known time zone: ${attributes.time_zone}`);
  }
  const teamField = input.member_team_ids ? 'member_team_ids' : 'team_ids';
  const [ruleIds, teamIds] = await resolveReferences(principal.accountId, [
    {
      field: 'notification_rule_id',
      kind: 'notificationRule',
      ids: input.notification_rule_id ? [input.notification_rule_id] : [],
    },
    { field: teamField, kind: 'team', ids: input.member_team_ids ?? input.team_ids },
  ]);

  let user: UserRecord;
  let password: string | null = null;
  const ownerId = await existingOwner(emails);
  if (ownerId) {
    // The person exists (in another account): they join this one with their own profile.
    if (await getAccountUserOfUser(ownerId, principal.accountId)) {
      throw new Conflict(`email ${emails[0].email} is already in this account`);
    }
    const existing = await getUser(ownerId);
    if (!existing) throw new Conflict('the e-mail address is being claimed by another request; try again');
    user = existing;
  } else {
    password = generatePassword();
    user = await createUser(
      {
        name: attributes.name,
        emails,
        phones,
        time_zone: attributes.time_zone,
        ...definedOnly({
          notify_push: attributes.notify_push,
          notify_email: attributes.notify_email,
          notify_sms: attributes.notify_sms,
          notify_voice: attributes.notify_voice,
          notify_slack: attributes.notify_slack,
        }),
      },
      password,
    );
  }

  const now = new Date().toISOString();
  const record: AccountUserRecord = {
    id: newId(),
    account_id: principal.accountId,
    user_id: user.id,
    roles: { ...noRoles(), ...definedOnly(input.roles ?? {}) },
    notification_rule_id: ruleIds[0] ?? null,
    slack_user_id: input.slack_user_id ?? null,
    user: profileOf(user),
    created_at: now,
    updated_at: now,
    version: 1,
  };
  if (record.slack_user_id) await linkSlackUser(record.account_id, record.slack_user_id, record.id);
  try {
    await insertAccountUser(record);
  } catch (error) {
    // Two admins adding the same person at once: the second finds the first's account user.
    if (record.slack_user_id) await releaseSlackUser(record.account_id, record.slack_user_id, record.id);
    if (error instanceof AlreadyMember) throw new Conflict(`email ${emails[0].email} is already in this account`);
    if (error instanceof MembershipPending) throw new Conflict(error.message);
    throw error;
  }
  if (teamIds.length > 0) await addMemberships(principal.accountId, record.id, teamIds);
  await sendWelcome(principal.accountId, user, password, record.id);
  return record;
}

export async function sendWelcome(
  accountId: string,
  user: UserRecord,
  password: string | null,
  accountUserId: string | null = null,
): Promise<void> {
  const address = user.emails.find((e) => e.primary)?.email ?? user.emails[0].email;
  await deliver({
    accountId,
    userId: user.id,
    accountUserId,
    channel: 'email',
    to: address,
    subject: password ? 'Welcome to the on-call service' : 'You were added to an on-call account',
    template: password ? 'welcome' : 'invite',
    message: password
      ? `Hello ${user.name},\n\nAn account was created for you.\nUsername: ${address}\nPassword: ${password}\n\nPlease sign in and change your password (Profile, then Change password).`
      : `Hello ${user.name},\n\nYou were added to another on-call account. Sign in with your existing password.`,
    redacted: password ? `Welcome message with sign-in details sent to ${address}` : `Invitation sent to ${address}`,
  });
}
