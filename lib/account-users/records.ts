// Stored shapes of users (the person, global) and account users (the person inside one account).
import type { Roles } from '../http/principal';

export interface EmailRecord {
  id: string;
  email: string;
  primary: boolean;
}

export interface PhoneRecord {
  id: string;
  phone: string;
  primary: boolean;
  country: string | null;
  blocked: boolean;
}

export interface UserProfile {
  id: string;
  name: string;
  time_zone: string;
  notify_push: boolean;
  notify_email: boolean;
  notify_sms: boolean;
  notify_voice: boolean;
  /** Pages by Slack direct message by default (docs/api.md#slack); absent on people stored before it: false. */
  notify_slack?: boolean;
  emails: EmailRecord[];
  phones: PhoneRecord[];
  created_at: string;
  updated_at: string;
}

export interface UserRecord extends UserProfile {
  password_hash?: string;
  /** Bumped by every password change; login tokens carry the one they were issued under, so older
   * tokens are refused (absent: 0). */
  password_generation?: number;
  password_changed_at?: string;
  version: number;
}

export interface AccountUserRecord {
  id: string;
  account_id: string;
  user_id: string;
  roles: Roles;
  notification_rule_id: string | null;
  /** The person in the account's connected Slack workspace (`U…`), set by an admin or the person, or
   * learned from users.lookupByEmail at their first Slack page; absent on account users stored before it. */
  slack_user_id?: string | null;
  /** A copy of the user's profile, refreshed on every profile change, so one read serves a request. */
  user: UserProfile;
  /** When the account's identity provider deactivated the person here (SCIM `active: false`): no sign-in,
   * no pages, no turns in rotations from then on (docs/api.md#scim-provisioning). Absent or null: active. */
  deactivated_at?: string | null;
  /** The identity provider's own id for the person (SCIM `externalId`), as it sent it. */
  external_id?: string | null;
  /** The name's parts as the identity provider last sent them (SCIM name.givenName, name.familyName),
   * kept to answer them back; the person's `name` is what every other part of the service uses. */
  name_parts?: { given: string | null; family: string | null } | null;
  created_at: string;
  updated_at: string;
  version: number;
}

export function profileOf(user: UserRecord): UserProfile {
  const { password_hash: _hash, password_generation: _generation, password_changed_at: _changed, version: _version, ...profile } = user;
  return profile;
}
