// The pure SCIM parts: PATCH operations as Okta and Microsoft Entra ID send them, applied to a User's
// state, and the one filter form both send.
import { describe, expect, it } from 'vitest';
import { parseEqualityFilter, pageOf } from '../../lib/scim/filter';
import { nameOf, patchUserState, stateFromResource, type ScimUserState } from '../../lib/scim/user-state';

const ada: ScimUserState = {
  userName: 'ada@example.com',
  otherEmails: [],
  givenName: 'Ada',
  familyName: 'Lovelace',
  formatted: 'Ada Lovelace',
  displayName: 'Ada Lovelace',
  phones: [],
  active: true,
  externalId: null,
};
const ops = (...Operations: unknown[]) => ({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations });

describe('PATCH of a User', () => {
  it("takes Okta's path-less replace and Entra's Replace with a path and string booleans", () => {
    expect(patchUserState(ada, ops({ op: 'replace', value: { active: false } })).active).toBe(false);
    expect(patchUserState(ada, ops({ op: 'Replace', path: 'active', value: 'False' })).active).toBe(false);
    expect(patchUserState({ ...ada, active: false }, ops({ op: 'REPLACE', path: 'active', value: 'True' })).active).toBe(true);
  });

  it('sets the work e-mail, the mobile and work numbers, name parts and externalId by their paths', () => {
    const next = patchUserState(
      ada,
      ops(
        { op: 'Add', path: 'emails[type eq "work"].value', value: 'ada@new.example.com' },
        { op: 'Replace', path: 'phoneNumbers[type eq "mobile"].value', value: '+14155552671' },
        { op: 'Add', path: 'phoneNumbers[type eq "work"].value', value: '+14155550100' },
        { op: 'Replace', path: 'name.givenName', value: 'Augusta' },
        { op: 'Replace', path: 'externalId', value: 'e-1' },
        { op: 'Add', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'Maths' },
      ),
    );
    expect(next).toMatchObject({
      userName: 'ada@new.example.com',
      phones: ['+14155552671', '+14155550100'],
      givenName: 'Augusta',
      externalId: 'e-1',
    });
    expect(ada.userName).toBe('ada@example.com');
  });

  it('removes by path, and a work number without a mobile keeps the mobile slot open', () => {
    const next = patchUserState(ada, ops({ op: 'add', path: 'phoneNumbers[type eq "work"].value', value: '+14155550100' }));
    expect(next.phones).toEqual(['', '+14155550100']);
    expect(patchUserState(next, ops({ op: 'remove', path: 'phoneNumbers[type eq "work"]' })).phones).toEqual([]);
    expect(patchUserState(ada, ops({ op: 'remove', path: 'name.familyName' })).familyName).toBeNull();
  });

  it('refuses what it cannot apply, naming it', () => {
    expect(() => patchUserState(ada, ops({ op: 'move', path: 'active' }))).toThrow(/op must be add, replace or remove/);
    expect(() => patchUserState(ada, ops({ op: 'remove', path: 'userName' }))).toThrow(/userName cannot be removed/);
    expect(() => patchUserState(ada, ops({ op: 'replace', path: 'nickname2', value: 'x' }))).toThrow(/path nickname2/);
    expect(() => patchUserState(ada, ops({ op: 'replace', path: 'active', value: 'yes' }))).toThrow(/active must be true or false/);
    expect(() => patchUserState(ada, { Operations: [] })).toThrow(/at least one operation/);
  });
});

describe('a User resource', () => {
  it('keeps userName as the primary address, other addresses after it', () => {
    const state = stateFromResource({
      userName: 'Bob@Example.com',
      emails: [
        { value: 'bob.home@example.com', type: 'home', primary: true },
        { value: 'bob@example.com', type: 'work' },
      ],
      name: { givenName: 'Bob', familyName: 'Stone' },
    });
    expect(state.userName).toBe('Bob@Example.com');
    expect(state.otherEmails).toEqual(['bob.home@example.com']);
    expect(nameOf(state)).toBe('Bob Stone');
    expect(nameOf({ ...state, givenName: null, familyName: null })).toBe('Bob');
  });
});

describe('filters and pages', () => {
  it('reads attr eq "value" in any case of the attribute and op, and refuses the rest as invalidFilter', () => {
    expect(parseEqualityFilter('userName eq "a@b.c"', ['userName'])).toEqual({ attribute: 'userName', value: 'a@b.c' });
    expect(parseEqualityFilter('USERNAME EQ "q\\"uote"', ['userName']).value).toBe('q"uote');
    expect(() => parseEqualityFilter('userName sw "a"', ['userName'])).toThrow(expect.objectContaining({ scimType: 'invalidFilter' }));
    expect(() => parseEqualityFilter('emails eq "a"', ['userName'])).toThrow(expect.objectContaining({ scimType: 'invalidFilter' }));
  });

  it('clamps startIndex and count as RFC 7644 says', () => {
    expect(pageOf(new URLSearchParams('startIndex=0&count=-5'), 200)).toEqual({ startIndex: 1, count: 0 });
    expect(pageOf(new URLSearchParams('count=1000'), 200)).toEqual({ startIndex: 1, count: 200 });
    expect(() => pageOf(new URLSearchParams('count=ten'), 200)).toThrow(/count must be a whole number/);
  });
});
