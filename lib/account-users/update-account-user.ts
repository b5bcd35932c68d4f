// Update an account user (docs/api.md#requests): partial; roles merge the keys given; user_attributes edit
// the person's name, notify flags and contacts by id. A non-admin may update only their own account
// user and never its roles.
import { forgetAccountUser } from '../auth/principal-cache';
import type { AuditTarget } from '../store/audit-carried';
import { definedOnly } from '../http/changes';
import { Conflict, Forbidden, Invalid, NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { resolveReferences } from '../http/references';
import { parseInput } from '../http/validate';
import { resolveTimeZone } from '../oncall/time-zones';
import { setMemberships } from '../teams/membership';
import { applyEmailChanges, applyPhoneChanges } from './contacts';
import { findAccountUser } from './read-account-users';
import { profileOf, type AccountUserRecord, type UserRecord } from './records';
import { updateAccountUserInput, type UpdateAccountUserInput } from './schemas';
import { linkSlackUser } from './slack-link';
import { claimEmail, getUser, refreshProfileCopies, releaseEmail, releaseSlackUser, saveAccountUser, saveUser } from './store';

async function updateProfile(
  user: UserRecord,
  changes: NonNullable<UpdateAccountUserInput['user_attributes']>,
  audit: AuditTarget,
): Promise<UserRecord> {
  const field = 'user_attributes';
  if (changes.time_zone !== undefined && !resolveTimeZone(changes.time_zone)) {
    throw new Invalid(`${field}.time_zone is not a known time zone: ${changes.time_zone}`);
  }
  const emails = changes.emails_attributes
    ? applyEmailChanges(user.emails, changes.emails_attributes, `${field}.emails_attributes`)
    : user.emails;
  const phones = changes.phones_attributes
    ? await applyPhoneChanges(user.phones, changes.phones_attributes, `${field}.phones_attributes`)
    : user.phones;
  const before = new Set(user.emails.map((e) => e.email));
  const after = new Set(emails.map((e) => e.email));
  const added = [...after].filter((email) => !before.has(email));
  const removed = [...before].filter((email) => !after.has(email));
  const claimed: string[] = [];
  for (const email of added) {
    if (!(await claimEmail(email, user.id))) {
      await Promise.all(claimed.map((e) => releaseEmail(e, user.id)));
      throw new Conflict(`email ${email} is already taken`);
    }
    claimed.push(email);
  }
  const next: UserRecord = {
    ...user,
    ...definedOnly({
      name: changes.name,
      time_zone: changes.time_zone,
      notify_push: changes.notify_push,
      notify_email: changes.notify_email,
      notify_sms: changes.notify_sms,
      notify_voice: changes.notify_voice,
      notify_slack: changes.notify_slack,
    }),
    emails,
    phones,
    updated_at: new Date().toISOString(),
    version: user.version + 1,
  };
  if (!(await saveUser(next, audit))) {
    await Promise.all(claimed.map((e) => releaseEmail(e, user.id)));
    throw new Conflict('the user was changed by another request; reload and try again');
  }
  await Promise.all(removed.map((email) => releaseEmail(email, user.id)));
  await refreshProfileCopies(next);
  return next;
}

export async function updateAccountUser(principal: Principal, rawId: string, body: unknown): Promise<AccountUserRecord> {
  const current = await findAccountUser(principal, rawId);
  const isSelf = current.id === principal.accountUserId;
  if (!principal.roles.admin && !isSelf) throw new Forbidden('Only an account admin may update other account users');
  const input = parseInput(updateAccountUserInput, body);

  const roles = { ...current.roles, ...definedOnly(input.roles ?? {}) };
  const rolesChanged = Object.keys(roles).some((k) => roles[k as keyof typeof roles] !== current.roles[k as keyof typeof roles]);
  if (rolesChanged && !principal.roles.admin) throw new Forbidden('Only an account admin may change roles');

  const teamField = input.member_team_ids ? 'member_team_ids' : 'team_ids';
  const teamInput = input.member_team_ids ?? input.team_ids;
  if (teamInput && !principal.roles.admin) throw new Forbidden('Only an account admin may change team memberships');
  const [ruleIds, teamIds] = await resolveReferences(principal.accountId, [
    {
      field: 'notification_rule_id',
      kind: 'notificationRule',
      ids: input.notification_rule_id ? [input.notification_rule_id] : [],
    },
    { field: teamField, kind: 'team', ids: teamInput },
  ]);

  let profile = current.user;
  if (input.user_attributes && Object.values(input.user_attributes).some((v) => v !== undefined)) {
    const user = await getUser(current.user_id);
    if (!user) throw new NotFound('Account user not found');
    // The person's own item is where the change lands (the account users' copies follow it): its
    // event is in this account's trail, as a change of this account user.
    const audit = { accountId: principal.accountId, objectType: 'account_user', objectId: current.id };
    profile = profileOf(await updateProfile(user, input.user_attributes, audit));
  }

  const slackUserId = input.slack_user_id === undefined ? (current.slack_user_id ?? null) : input.slack_user_id;
  const relinked = slackUserId !== (current.slack_user_id ?? null);
  if (relinked && slackUserId) await linkSlackUser(principal.accountId, slackUserId, current.id);

  const next: AccountUserRecord = {
    ...current,
    slack_user_id: slackUserId,
    roles,
    notification_rule_id: input.notification_rule_id === undefined ? current.notification_rule_id : (ruleIds[0] ?? null),
    user: profile,
    updated_at: new Date().toISOString(),
    version: current.version + 1,
  };
  // Profile copies are refreshed without a version bump, so only a concurrent account-user edit fails this.
  if (!(await saveAccountUser(next))) {
    if (relinked && slackUserId) await releaseSlackUser(principal.accountId, slackUserId, current.id);
    throw new Conflict('the account user was changed by another request; reload and try again');
  }
  if (relinked && current.slack_user_id) await releaseSlackUser(principal.accountId, current.slack_user_id, current.id);
  if (teamInput) await setMemberships(principal.accountId, current.id, teamIds);
  if (rolesChanged) forgetAccountUser(current.id);
  return next;
}
