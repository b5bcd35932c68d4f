import { describe, expect, it } from 'vitest';
import { isUlid, newId, parseId, parsePrefixedId, prefixId, ulidTime } from '../lib/ids';

describe('identifiers', () => {
  it('makes ULIDs that sort by creation', () => {
    const ids = Array.from({ length: 50 }, () => newId());
    expect(ids.every(isUlid)).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(Math.abs(ulidTime(ids[0]) - Date.now())).toBeLessThan(5_000);
  });

  it('accepts the ULID or its own prefix id, nothing else', () => {
    const id = newId();
    expect(parseId('alert', id)).toBe(id);
    expect(parseId('alert', id.toLowerCase())).toBe(id);
    expect(parseId('alert', prefixId('alert', id))).toBe(id);
    expect(parseId('alert', prefixId('team', id))).toBeNull();
    expect(parseId('alert', 'alt_123')).toBeNull();
    expect(parseId('alert', 42)).toBeNull();
    expect(parseId('alert', '')).toBeNull();
  });

  it('splits prefix ids of any known kind', () => {
    const id = newId();
    expect(parsePrefixedId(`tem_${id}`)).toEqual({ kind: 'team', id });
    expect(parsePrefixedId(`usr_${id}`)).toEqual({ kind: 'user', id });
    expect(parsePrefixedId(`zzz_${id}`)).toBeNull();
    expect(parsePrefixedId(id)).toBeNull();
  });
});
