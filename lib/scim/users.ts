// /scim/v2/Users (RFC 7644 §3): account users as SCIM Users. Every change goes through the account-user
// use cases: a new person through provisionAccountUser (as single sign-on creates them: no welcome
// message with a password, they sign in through their identity provider), the profile through
// updateAccountUser, active / externalId / the name's parts through setProvisioning, and DELETE through
// deleteAccountUser (as DELETE /api/v4/account_users/:id does).
import * as z from 'zod';
import { deleteAccountUser } from '../account-users/delete-account-user';
import { provisionAccountUser } from '../account-users/provision-account-user';
import { setProvisioning } from '../account-users/provisioning';
import type { AccountUserRecord, PhoneRecord } from '../account-users/records';
import { normalizePhone } from '../account-users/contacts';
import { accountUserCollection, getAccountUser, getAccountUserOfUser, getUserIdByEmail } from '../account-users/store';
import { updateAccountUser } from '../account-users/update-account-user';
import { NotFound } from '../http/errors';
import { noRoles, type Principal } from '../http/principal';
import { ScimError } from '../http/scim-errors';
import { newId, parseId } from '../ids';
import { lazySchema } from '../lazy-schema';
import { whenLoaded } from '../on-first-use';
import { pageOf, parseEqualityFilter } from './filter';
import { listResponse, scimUserOf, userState } from './represent';
import { nameOf, patchUserState, stateFromResource, type ScimUserState } from './user-state';

/** The most Users one page holds (ServiceProviderConfig's filter.maxResults). */
export const MAX_RESULTS = 200;

const emailAddress = lazySchema(() => z.email());

async function findUser(principal: Principal, rawId: string): Promise<AccountUserRecord> {
  const id = parseId('accountUser', rawId);
  const record = id ? await getAccountUser(principal.accountId, id) : null;
  if (!record) throw new NotFound(`User ${rawId} not found`);
  return record;
}

async function userByName(accountId: string, userName: string): Promise<AccountUserRecord | null> {
  const owner = await getUserIdByEmail(userName.trim().toLowerCase());
  return owner ? getAccountUserOfUser(owner, accountId) : null;
}

/** The state's addresses and numbers, checked: userName must be an e-mail address, numbers E.164 (spaces and dashes are dropped). */
async function checked(state: ScimUserState): Promise<{ emails: string[]; phones: string[] }> {
  const emails = [state.userName, ...state.otherEmails].map((email) => email.trim().toLowerCase());
  emails.forEach((email, index) => {
    if (!emailAddress.safeParse(email).success) {
      throw new ScimError(400, 'invalidValue', `${index === 0 ? 'userName' : 'emails'} must be an e-mail address; got: ${email}`);
    }
  });
  const phones = await whenLoaded(() =>
    state.phones
      .filter((phone) => phone !== '')
      .map((phone, index) => normalizePhone(`phoneNumbers[${index}].value`, phone.replace(/[\s().-]/g, '')).phone),
  );
  return { emails: [...new Set(emails)], phones: [...new Set(phones)] };
}

export async function listScimUsers(principal: Principal, query: URLSearchParams, base: string) {
  const page = pageOf(query, MAX_RESULTS);
  const filter = query.get('filter');
  let found: AccountUserRecord[];
  if (filter !== null && filter.trim() !== '') {
    const { value } = parseEqualityFilter(filter, ['userName']);
    const match = await userByName(principal.accountId, value);
    found = match ? [match] : [];
  } else {
    // Oldest first: a ULID orders by creation, so startIndex pages stay put while people are added.
    found = (await accountUserCollection(principal.accountId).all()).sort((a, b) => (a.id < b.id ? -1 : 1));
  }
  return listResponse(
    found.map((record) => scimUserOf(record, base)),
    page,
  );
}

export async function getScimUser(principal: Principal, rawId: string): Promise<AccountUserRecord> {
  return findUser(principal, rawId);
}

export async function createScimUser(principal: Principal, body: Record<string, unknown>): Promise<AccountUserRecord> {
  const state = stateFromResource(body);
  const { emails, phones } = await checked(state);
  if (await userByName(principal.accountId, emails[0])) {
    throw new ScimError(409, 'uniqueness', `userName ${emails[0]} is already in use by a User of this account`);
  }
  const phoneRecords: PhoneRecord[] = await whenLoaded(() =>
    phones.map((phone, index) => ({ id: newId(), ...normalizePhone('phoneNumbers', phone), primary: index === 0, blocked: false })),
  );
  const created = await provisionAccountUser(principal.accountId, {
    email: emails[0],
    otherEmails: emails.slice(1),
    name: nameOf(state),
    roles: noRoles(),
    phones: phoneRecords,
  });
  return setProvisioning(principal, created.id, {
    active: state.active,
    external_id: state.externalId,
    name_parts: { given: state.givenName, family: state.familyName },
  });
}

/** Writes the difference between the person as stored and `next`. */
async function writeState(principal: Principal, current: AccountUserRecord, next: ScimUserState): Promise<AccountUserRecord> {
  const { emails, phones } = await checked(next);
  if (emails[0] !== userState(current).userName.toLowerCase()) {
    const holder = await userByName(principal.accountId, emails[0]);
    if (holder && holder.id !== current.id)
      throw new ScimError(409, 'uniqueness', `userName ${emails[0]} is already in use by another User`);
  }
  const name = nameOf(next);
  const stored = current.user;
  const emailChanges = [
    ...stored.emails.filter((e) => !emails.includes(e.email)).map((e) => ({ id: e.id, _destroy: true })),
    ...emails.map((email, index) => {
      const existing = stored.emails.find((e) => e.email === email);
      return existing ? { id: existing.id, primary: index === 0 } : { email, primary: index === 0 };
    }),
  ];
  const phoneChanges = [
    ...stored.phones.filter((p) => !phones.includes(p.phone)).map((p) => ({ id: p.id, _destroy: true })),
    ...phones.map((phone, index) => {
      const existing = stored.phones.find((p) => p.phone === phone);
      return existing ? { id: existing.id, primary: index === 0 } : { phone, primary: index === 0 };
    }),
  ];
  const sameEmails =
    emails.join(' ') ===
    [...stored.emails]
      .sort((a, b) => Number(b.primary) - Number(a.primary))
      .map((e) => e.email)
      .join(' ');
  const samePhones =
    phones.join(' ') ===
    [...stored.phones]
      .sort((a, b) => Number(b.primary) - Number(a.primary))
      .map((p) => p.phone)
      .join(' ');
  if (name !== stored.name || !sameEmails || !samePhones) {
    await updateAccountUser(principal, current.id, {
      user_attributes: {
        ...(name !== stored.name ? { name } : {}),
        ...(sameEmails ? {} : { emails_attributes: emailChanges }),
        ...(samePhones ? {} : { phones_attributes: phoneChanges }),
      },
    });
  }
  return setProvisioning(principal, current.id, {
    active: next.active,
    external_id: next.externalId,
    name_parts: { given: next.givenName, family: next.familyName },
  });
}

export async function replaceScimUser(principal: Principal, rawId: string, body: Record<string, unknown>): Promise<AccountUserRecord> {
  const current = await findUser(principal, rawId);
  return writeState(principal, current, stateFromResource(body));
}

export async function patchScimUser(principal: Principal, rawId: string, body: Record<string, unknown>): Promise<AccountUserRecord> {
  const current = await findUser(principal, rawId);
  return writeState(principal, current, patchUserState(userState(current), body));
}

export async function deleteScimUser(principal: Principal, rawId: string): Promise<void> {
  const current = await findUser(principal, rawId);
  await deleteAccountUser(principal, current.id);
}
