import { describe, expect, it, vi } from 'vitest';
import { isUlid, newId, parseId, parsePrefixedId, prefixId, ulidTime } from '../lib/ids';

describe('identifiers', () => {
  it('makes ULIDs that sort by creation', () => {
    const before = Date.now();
    const ids = Array.from({ length: 50 }, () => newId());
    const after = Date.now();
    expect(ids.every(isUlid)).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    // Stamped with the time they were made (the monotonic factory may carry the first one's
    // millisecond on, never back).
    for (const id of ids) {
      expect(ulidTime(id)).toBeGreaterThanOrEqual(before);
      expect(ulidTime(id)).toBeLessThanOrEqual(after);
    }
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

  it('draws a fresh random part in every millisecond, past the end of its pool of random bytes', () => {
    // Ahead of any id made before (a monotonic factory only increments while the clock is behind its last id).
    vi.useFakeTimers({ now: Date.now() + 86_400_000, toFake: ['Date'] });
    try {
      // 600 ids in 600 milliseconds draw 9 600 random bytes: the 4 KiB pool is refilled twice.
      const randomParts = Array.from({ length: 600 }, () => {
        vi.advanceTimersByTime(1);
        return newId().slice(10);
      });
      expect(new Set(randomParts).size).toBe(600);
      // Uniform bytes give every one of the 32 symbols about 19 times as the first character.
      const firstSymbols = new Set(randomParts.map((part) => part[0]));
      expect(firstSymbols.size).toBe(32);
    } finally {
      vi.useRealTimers();
    }
  });
});
