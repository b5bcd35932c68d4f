// Sort-key ranges of days read side by side (lib/store/items.ts splitDayRange): whole days, in order,
// none left out or read twice, across month and year ends.
import { describe, expect, it } from 'vitest';
import { splitDayRange } from '../../lib/store/items';

describe('a range of days cut for Queries side by side', () => {
  it('cuts a long range into consecutive whole days, a short one not at all', () => {
    expect(splitDayRange('2027-02-23', '2027-03-24', 3, 10)).toEqual([
      ['2027-02-23', '2027-03-04'],
      ['2027-03-05', '2027-03-14'],
      ['2027-03-15', '2027-03-24'],
    ]);
    // 14 days make one range of at least 10; 25 days two.
    expect(splitDayRange('2027-03-08', '2027-03-21', 3, 10)).toEqual([['2027-03-08', '2027-03-21']]);
    expect(splitDayRange('2027-03-01', '2027-03-25', 3, 10)).toEqual([
      ['2027-03-01', '2027-03-13'],
      ['2027-03-14', '2027-03-25'],
    ]);
    expect(splitDayRange('2027-03-01', '2027-03-01', 3, 10)).toEqual([['2027-03-01', '2027-03-01']]);
    // A year across New Year: three ranges, the last one shorter, every day once.
    const year = splitDayRange('2026-12-31', '2027-12-31', 3, 10);
    expect(year).toEqual([
      ['2026-12-31', '2027-05-01'],
      ['2027-05-02', '2027-08-31'],
      ['2027-09-01', '2027-12-31'],
    ]);
  });
});
