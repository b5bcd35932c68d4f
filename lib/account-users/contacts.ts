// Editing a user's e-mail addresses and phone numbers by `id` (docs/api.md#errors): an entry with an id
// changes that entry (`_destroy: true` removes it), an entry without one adds a new entry. Exactly
// one entry of each list is primary: the one marked so, else the first.
import { Invalid } from '../http/errors';
import { newId, parseId } from '../ids';
import { onFirstUse, whenLoaded } from '../on-first-use';
import type { EmailRecord, PhoneRecord } from './records';
import type { EmailInput, PhoneInput } from './schemas';

/** The full metadata (every number type of every country, 190 KiB): loaded by the first request that writes a phone number. */
const phoneNumbers = /* @__PURE__ */ onFirstUse(() => import('libphonenumber-js/max'));

export function normalizePhone(field: string, raw: string): { phone: string; country: string | null } {
  const parsed = /^\+[1-9]\d{6,14}$/.test(raw) ? phoneNumbers().parsePhoneNumberFromString(raw) : undefined;
  if (!parsed || !parsed.isValid()) {
    throw new Invalid(`${field} must be a valid phone number in E.164 format (+ and country code, e.g. +14155552671)`);
  }
  return { phone: parsed.number, country: parsed.country ?? null };
}

function settlePrimary<T extends { primary: boolean }>(entries: T[], marked: T | undefined): T[] {
  const chosen = marked ?? entries.find((e) => e.primary) ?? entries[0];
  return entries.map((entry) => ({ ...entry, primary: entry === chosen }));
}

export function applyEmailChanges(current: EmailRecord[], changes: EmailInput[], field: string): EmailRecord[] {
  let list = [...current];
  let marked: EmailRecord | undefined;
  changes.forEach((change, index) => {
    const at = `${field}[${index}]`;
    if (change.id) {
      const id = parseId('email', change.id);
      const existing = id ? list.find((e) => e.id === id) : undefined;
      if (!existing) throw new Invalid(`${at}.id names no e-mail address of this user: ${change.id}`);
      if (change._destroy) {
        list = list.filter((e) => e !== existing);
        return;
      }
      const updated = { ...existing, email: change.email ?? existing.email };
      if (change.primary !== undefined) updated.primary = change.primary;
      list = list.map((e) => (e === existing ? updated : e));
      if (change.primary) marked = updated;
      return;
    }
    if (change._destroy) return;
    if (!change.email) throw new Invalid(`${at}.email can't be blank`);
    const added: EmailRecord = { id: newId(), email: change.email, primary: change.primary ?? false };
    list.push(added);
    if (change.primary) marked = added;
  });
  if (list.length === 0) throw new Invalid(`${field} must leave the user at least one e-mail address`);
  const seen = new Set<string>();
  for (const entry of list) {
    if (seen.has(entry.email)) throw new Invalid(`${field} lists ${entry.email} twice`);
    seen.add(entry.email);
  }
  return settlePrimary(list, marked);
}

export function applyPhoneChanges(current: PhoneRecord[], changes: PhoneInput[], field: string): Promise<PhoneRecord[]> {
  return whenLoaded(() => phoneChanges(current, changes, field));
}

function phoneChanges(current: PhoneRecord[], changes: PhoneInput[], field: string): PhoneRecord[] {
  let list = [...current];
  let marked: PhoneRecord | undefined;
  changes.forEach((change, index) => {
    const at = `${field}[${index}]`;
    if (change.id) {
      const id = parseId('phone', change.id);
      const existing = id ? list.find((p) => p.id === id) : undefined;
      if (!existing) throw new Invalid(`${at}.id names no phone number of this user: ${change.id}`);
      if (change._destroy) {
        list = list.filter((p) => p !== existing);
        return;
      }
      const updated = { ...existing };
      if (change.phone !== undefined) Object.assign(updated, normalizePhone(`${at}.phone`, change.phone));
      if (change.primary !== undefined) updated.primary = change.primary;
      list = list.map((p) => (p === existing ? updated : p));
      if (change.primary) marked = updated;
      return;
    }
    if (change._destroy) return;
    if (!change.phone) throw new Invalid(`${at}.phone can't be blank`);
    const added: PhoneRecord = {
      id: newId(),
      ...normalizePhone(`${at}.phone`, change.phone),
      primary: change.primary ?? false,
      blocked: false,
    };
    list.push(added);
    if (change.primary) marked = added;
  });
  return list.length > 0 ? settlePrimary(list, marked) : list;
}
