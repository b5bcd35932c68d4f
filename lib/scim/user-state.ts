// A person as SCIM sees them (RFC 7643 §4.1, the core User schema), and the PATCH operations Okta and
// Microsoft Entra ID send, applied to it (RFC 7644 §3.5.2). Pure: the use cases (users.ts) read the
// state from the account user, apply a replace or a PATCH, and write what changed through the
// account-user use cases.
//
// The mapping: `userName` is the primary e-mail address, and is also the `work` e-mail
// (`emails[type eq "work"].value`): one address, so either path changes it. Further addresses are
// e-mails of type `other`. The first phone number is `mobile`, the next `work`. `name.formatted` is the
// person's name; given and family names are kept as sent.
import { ScimError } from '../http/scim-errors';

export interface ScimUserState {
  userName: string;
  otherEmails: string[];
  givenName: string | null;
  familyName: string | null;
  formatted: string | null;
  displayName: string | null;
  /** [mobile, work, …]: '' holds a slot open when only the work number is known. */
  phones: string[];
  active: boolean;
  externalId: string | null;
}

export interface PatchOperation {
  op: string;
  path?: string;
  value?: unknown;
}

/** SCIM booleans as sent: JSON booleans, and Entra's "True" / "False" strings. */
export function scimBoolean(value: unknown, field: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  throw new ScimError(400, 'invalidValue', `${field} must be true or false; got: ${JSON.stringify(value)}`);
}

function text(value: unknown, field: string, { nullable = true } = {}): string | null {
  if (value === null || value === undefined) {
    if (nullable) return null;
    throw new ScimError(400, 'invalidValue', `${field} is required`);
  }
  if (typeof value !== 'string') throw new ScimError(400, 'invalidValue', `${field} must be a string; got: ${JSON.stringify(value)}`);
  const trimmed = value.trim();
  if (!nullable && trimmed === '') throw new ScimError(400, 'invalidValue', `${field} can't be blank`);
  return trimmed === '' ? null : trimmed;
}

/** A multi-valued attribute's entries ({value, type, primary}) as sent; a single object counts as one. */
function entries(value: unknown, field: string): { value: string; type: string | null; primary: boolean }[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((entry, index) => {
    if (!entry || typeof entry !== 'object') throw new ScimError(400, 'invalidValue', `${field}[${index}] must be an object with a value`);
    const record = entry as Record<string, unknown>;
    return {
      value: text(record.value, `${field}[${index}].value`, { nullable: false })!,
      type: typeof record.type === 'string' ? record.type.toLowerCase() : null,
      primary: record.primary === undefined ? false : scimBoolean(record.primary, `${field}[${index}].primary`),
    };
  });
}

function setEmails(state: ScimUserState, value: unknown): void {
  const list = entries(value, 'emails');
  const main = list.find((e) => e.primary) ?? list.find((e) => e.type === 'work') ?? list[0];
  if (main) state.userName = main.value;
  state.otherEmails = list.filter((e) => e !== main).map((e) => e.value);
}

function setPhones(state: ScimUserState, value: unknown): void {
  const list = entries(value, 'phoneNumbers');
  const mobile = list.find((p) => p.type === 'mobile') ?? list.find((p) => p.primary) ?? list[0];
  state.phones = mobile ? [mobile.value, ...list.filter((p) => p !== mobile).map((p) => p.value)] : [];
}

/** The phone slot a `phoneNumbers[type eq "…"]` filter names: mobile is the first number, any other type the second. */
const phoneSlot = (type: string) => (type === 'mobile' ? 0 : 1);

function setPhone(state: ScimUserState, type: string, value: string | null): void {
  const slot = phoneSlot(type);
  const phones = [...state.phones];
  while (phones.length <= slot) phones.push('');
  phones[slot] = value ?? '';
  while (phones.length > 0 && phones[phones.length - 1] === '') phones.pop();
  state.phones = phones;
}

/** A body of a POST or PUT (the whole resource) as a state. */
export function stateFromResource(body: Record<string, unknown>): ScimUserState {
  const state: ScimUserState = {
    userName: text(body.userName, 'userName', { nullable: false })!,
    otherEmails: [],
    givenName: null,
    familyName: null,
    formatted: null,
    displayName: text(body.displayName, 'displayName'),
    phones: [],
    active: body.active === undefined ? true : scimBoolean(body.active, 'active'),
    externalId: text(body.externalId, 'externalId'),
  };
  if (body.name !== undefined && body.name !== null) {
    if (typeof body.name !== 'object') throw new ScimError(400, 'invalidValue', 'name must be an object');
    const name = body.name as Record<string, unknown>;
    state.givenName = text(name.givenName, 'name.givenName');
    state.familyName = text(name.familyName, 'name.familyName');
    state.formatted = text(name.formatted, 'name.formatted');
  }
  const userName = state.userName;
  if (body.emails !== undefined && body.emails !== null) {
    setEmails(state, body.emails);
    // userName wins over an e-mail marked primary: it is the person's sign-in.
    state.otherEmails = [state.userName, ...state.otherEmails].filter((email) => email.toLowerCase() !== userName.toLowerCase());
    state.userName = userName;
  }
  if (body.phoneNumbers !== undefined && body.phoneNumbers !== null) setPhones(state, body.phoneNumbers);
  return state;
}

const FILTERED = /^(emails|phoneNumbers)\[\s*type\s+eq\s+"([^"]*)"\s*\](?:\.(value))?$/i;
const EXTENSION = /^urn:ietf:params:scim:schemas:extension:/i;

/** Applies one attribute's change (`path` as SCIM names it) to the state. */
function applyPath(state: ScimUserState, op: 'add' | 'replace' | 'remove', path: string, value: unknown): void {
  const removing = op === 'remove';
  const filtered = FILTERED.exec(path);
  if (filtered) {
    const [, attribute, rawType] = filtered;
    const type = rawType.toLowerCase();
    const single = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>).value : v);
    const given = removing ? null : text(filtered[3] ? value : single(value), path);
    if (attribute.toLowerCase() === 'emails') {
      if (type === 'work' || type === 'primary') {
        if (given === null) throw new ScimError(400, 'mutability', `${path} is the person's userName and cannot be removed`);
        state.userName = given;
      } else if (given === null) state.otherEmails = [];
      else state.otherEmails = [given, ...state.otherEmails.slice(1)];
    } else setPhone(state, type, given);
    return;
  }
  switch (path.toLowerCase()) {
    case 'active':
      if (removing) throw new ScimError(400, 'mutability', 'active cannot be removed; replace it with false');
      state.active = scimBoolean(value, 'active');
      return;
    case 'username':
      if (removing) throw new ScimError(400, 'mutability', 'userName cannot be removed');
      state.userName = text(value, 'userName', { nullable: false })!;
      return;
    case 'externalid':
      state.externalId = removing ? null : text(value, 'externalId');
      return;
    case 'displayname':
      state.displayName = removing ? null : text(value, 'displayName');
      return;
    case 'name.givenname':
      state.givenName = removing ? null : text(value, 'name.givenName');
      return;
    case 'name.familyname':
      state.familyName = removing ? null : text(value, 'name.familyName');
      return;
    case 'name.formatted':
      state.formatted = removing ? null : text(value, 'name.formatted');
      return;
    case 'name':
      if (removing || value === null) Object.assign(state, { givenName: null, familyName: null, formatted: null });
      else if (typeof value === 'object') for (const [key, part] of Object.entries(value)) applyPath(state, op, `name.${key}`, part);
      else throw new ScimError(400, 'invalidValue', 'name must be an object');
      return;
    case 'emails':
      if (removing) state.otherEmails = [];
      else if (op === 'add') state.otherEmails = [...state.otherEmails, ...entries(value, 'emails').map((e) => e.value)];
      else setEmails(state, value);
      return;
    case 'phonenumbers':
      if (removing) state.phones = [];
      else if (op === 'add') state.phones = [...state.phones, ...entries(value, 'phoneNumbers').map((p) => p.value)];
      else setPhones(state, value);
      return;
    // Nothing of ours follows from these: a password is the identity provider's business (people sign in through it).
    case 'password':
    case 'locale':
    case 'timezone':
    case 'title':
    case 'nickname':
    case 'preferredlanguage':
    case 'usertype':
    case 'roles':
    case 'schemas':
    case 'id':
    case 'meta':
      return;
    default:
      if (EXTENSION.test(path)) return;
      throw new ScimError(400, 'invalidPath', `path ${path} names no attribute of a User this service keeps`);
  }
}

export const PATCH_OP_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/** The operations of a PATCH body (RFC 7644 §3.5.2), checked: `op` in any case, a path or an object value. */
export function patchOperations(
  body: Record<string, unknown>,
): { op: 'add' | 'replace' | 'remove'; path: string | null; value: unknown }[] {
  const operations = body.Operations ?? body.operations;
  if (!Array.isArray(operations) || operations.length === 0) {
    throw new ScimError(400, 'invalidSyntax', 'Operations must be a list of at least one operation');
  }
  return operations.map((raw: unknown, index) => {
    if (!raw || typeof raw !== 'object') throw new ScimError(400, 'invalidSyntax', `Operations[${index}] must be an object`);
    const operation = raw as PatchOperation;
    const op = typeof operation.op === 'string' ? operation.op.trim().toLowerCase() : '';
    if (op !== 'add' && op !== 'replace' && op !== 'remove') {
      throw new ScimError(
        400,
        'invalidSyntax',
        `Operations[${index}].op must be add, replace or remove; got: ${JSON.stringify(operation.op)}`,
      );
    }
    const path = typeof operation.path === 'string' && operation.path.trim() !== '' ? operation.path.trim() : null;
    if (op === 'remove' && path === null) throw new ScimError(400, 'noTarget', `Operations[${index}].path is required to remove`);
    if (path === null && (!operation.value || typeof operation.value !== 'object' || Array.isArray(operation.value))) {
      throw new ScimError(400, 'invalidValue', `Operations[${index}].value must be an object of attributes when there is no path`);
    }
    return { op, path, value: operation.value };
  });
}

/** The state after a PATCH's operations, in their order (the input is not changed). */
export function patchUserState(current: ScimUserState, body: Record<string, unknown>): ScimUserState {
  const state: ScimUserState = { ...current, otherEmails: [...current.otherEmails], phones: [...current.phones] };
  for (const { op, path, value } of patchOperations(body)) {
    if (path !== null) applyPath(state, op, path, value);
    else for (const [key, part] of Object.entries(value as Record<string, unknown>)) applyPath(state, op, key, part);
  }
  return state;
}

/** The person's name from a state: formatted, else given and family names, else displayName, else the address's local part. */
export function nameOf(state: ScimUserState): string {
  const joined = [state.givenName, state.familyName].filter(Boolean).join(' ');
  return state.formatted ?? (joined || state.displayName || state.userName.split('@')[0]);
}
