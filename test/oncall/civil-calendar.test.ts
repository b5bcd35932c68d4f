import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { civilFromDays, countCongruent, daysFromCivil, weekdayOfDay } from '../../lib/oncall/civil-calendar';

describe('civil calendar arithmetic', () => {
  it('counts solutions of a + i·b ≡ 0 (mod m) like brute force', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: -50_000, max: 50_000 }),
        fc.integer({ min: 1, max: 120 }),
        fc.constantFrom(7, 12, 48, 1200, 4800),
        (n, a, b, m) => {
          let expected = 0;
          for (let i = 0; i < n; i++) if ((((a + i * b) % m) + m) % m === 0) expected++;

          expect(countCongruent(n, a, b, m)).toBe(expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('converts day numbers to dates and back like Date does', () => {
    fc.assert(
      fc.property(fc.integer({ min: -200_000, max: 200_000 }), (days) => {
        const date = new Date(days * 86_400_000);
        const civil = civilFromDays(days);

        expect(civil).toEqual({ year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() });
        expect(daysFromCivil(civil.year, civil.month, civil.day)).toBe(days);
        expect(weekdayOfDay(days)).toBe(date.getUTCDay());
      }),
      { numRuns: 500 },
    );
  });
});
