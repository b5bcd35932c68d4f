// The reports' duration histogram (lib/alerts/duration-histogram.ts): exact below 16 s, four buckets
// per doubling above, nearest-rank percentiles. Bucket bounds worked out by hand: bucket k ≥ 16 spans
// [16·2^((k−16)/4), 16·2^((k−15)/4)) seconds. Stored, four buckets share a number (bucket k is the
// 9-digit place k mod 4 of group ⌊k/4⌋): counts added as numbers come back bucket by bucket.
import { describe, expect, it } from 'vitest';
import {
  addGroupCounts,
  bucketGroup,
  bucketSeconds,
  durationBucket,
  LAST_BUCKET,
  LAST_GROUP,
  percentileSeconds,
} from '../../lib/alerts/duration-histogram';

describe('duration histogram', () => {
  it('gives every whole second below 16 s a bucket of its own', () => {
    expect([0, 999, 1000, 5_400, 15_999].map(durationBucket)).toEqual([0, 0, 1, 5, 15]);
    expect([0, 1, 5, 15].map(bucketSeconds)).toEqual([0, 1, 5, 15]);
    // A clock that stepped back reads as 0 s.
    expect(durationBucket(-5_000)).toBe(0);
  });

  it('puts longer durations in buckets four to a doubling, read as their geometric middle to 0.1 s', () => {
    // 16 s starts bucket 16 = [16, 19.03); 32 s starts bucket 20 = [32, 38.05); 19 s is still in 16.
    expect(durationBucket(16_000)).toBe(16);
    expect(durationBucket(19_000)).toBe(16);
    expect(durationBucket(20_000)).toBe(17);
    expect(durationBucket(32_000)).toBe(20);
    expect(durationBucket(31_999)).toBe(19);
    // 3600 s: 4·log2(225) = 31.25 → bucket 47 = [3444.3, 4096), middle 3756.
    expect(durationBucket(3_600_000)).toBe(47);
    expect(bucketSeconds(47)).toBe(3756);
    expect(bucketSeconds(16)).toBe(17.4); // √(16 · 19.03) = 17.45
  });

  it('reads any duration back within 9.1 % (from 16 s up to a year)', () => {
    for (let seconds = 16; seconds < 365 * 86_400; seconds = Math.ceil(seconds * 1.013)) {
      const read = bucketSeconds(durationBucket(seconds * 1000));
      expect(Math.abs(read - seconds) / seconds, `${seconds} s read as ${read}`).toBeLessThanOrEqual(0.091);
    }
  });

  it('takes percentiles by nearest rank over merged counts', () => {
    // 10 durations: 3 × 2 s, 5 × 7 s, 2 × 12 s. p50: the 5th (7 s); p90: the 9th (12 s); p10: the 1st.
    const histogram = new Map([
      [12, 2],
      [2, 3],
      [7, 5],
    ]);
    expect(percentileSeconds(histogram, 0.5)).toBe(7);
    expect(percentileSeconds(histogram, 0.9)).toBe(12);
    expect(percentileSeconds(histogram, 0.1)).toBe(2);
    expect(percentileSeconds(histogram, 0.3)).toBe(2);
    expect(percentileSeconds(histogram, 0.31)).toBe(7);
    expect(percentileSeconds(new Map(), 0.5)).toBeNull();
    expect(percentileSeconds(new Map([[3, 0]]), 0.5)).toBeNull();
  });

  it('packs four buckets into one number that days merge by adding, negative counts and all', () => {
    // Bucket 21 (40 s) is place 1 of group 5; bucket 47 (3600 s) place 3 of group 11: 10^27, past 2^53.
    expect(bucketGroup(durationBucket(40_000))).toEqual({ group: 5, weight: 1_000_000_000n });
    expect(bucketGroup(47)).toEqual({ group: 11, weight: 10n ** 27n });
    expect(bucketGroup(LAST_BUCKET).group).toBe(LAST_GROUP);
    // Day 1: 3 × bucket 44, 2 × bucket 47; day 2: 1 × bucket 45, 4 × bucket 47, and a bucket-46 count
    // taken away twice (a correction below zero). Stored numbers are what the ADDs summed.
    const weight = (bucket: number) => bucketGroup(bucket).weight;
    const day1 = 3n * weight(44) + 2n * weight(47);
    const day2 = weight(45) + 4n * weight(47) - 2n * weight(46);
    const merged = new Map<number, number>();
    addGroupCounts(merged, 11, day1 + day2);
    expect(merged).toEqual(
      new Map([
        [44, 3],
        [45, 1],
        [46, -2],
        [47, 6],
      ]),
    );
    // Read one by one into the same map: the same counts.
    const separately = new Map<number, number>();
    addGroupCounts(separately, 11, day1);
    addGroupCounts(separately, 11, day2);
    expect(separately).toEqual(merged);
    // A small number (the SDK reads it as a number, not a bigint), and a whole group below zero.
    const small = new Map<number, number>();
    addGroupCounts(small, 1, 2 * 1_000_000_000 + 7);
    addGroupCounts(small, 2, -weight(9));
    expect(small).toEqual(
      new Map([
        [4, 7],
        [5, 2],
        [9, -1],
      ]),
    );
    // The top place is not limited to 9 digits: it holds whatever is left.
    const top = new Map<number, number>();
    addGroupCounts(top, 0, 1_234_567_890n * weight(3));
    expect(top).toEqual(new Map([[3, 1_234_567_890]]));
  });
});
