import { describe, expect, it } from 'vitest';
import { mergeKeys as mergeOptions } from '../../lib/http/changes';
import { emissionIntervalMs, leaseSize } from '../../lib/integrations/ingest/token-bucket';
import { optionChanges } from '../../lib/integrations/schemas';

describe('rate limit leases', () => {
  it('lease one token at a time for small limits, more for large ones, never over 100', () => {
    expect(leaseSize({ burst: 2000, perMinute: 2 })).toBe(1);
    expect(leaseSize({ burst: 150, perMinute: 600 })).toBe(1);
    expect(leaseSize({ burst: 2000, perMinute: 600 })).toBe(3);
    expect(leaseSize({ burst: 1_000_000, perMinute: 10_000_000 })).toBe(100);
  });

  it('spaces tokens by a minute over the rate, shortened by TIME_SCALE', () => {
    expect(emissionIntervalMs({ burst: 1, perMinute: 600 })).toBe(100);
    expect(emissionIntervalMs({ burst: 1, perMinute: 7 })).toBe(8571.429);
    expect(emissionIntervalMs({ burst: 1, perMinute: 600, timeScale: 60 })).toBeCloseTo(1.667, 3);
  });
});

describe('integration options', () => {
  it('folds option_* parameters over the options hash and normalizes known options', () => {
    const messages: string[] = [];
    const changes = optionChanges(
      {
        options: { token: 'a', wrapper_key: 'detail', custom: 1 },
        option_token: 'b',
        option_capture_additional_data: 'true',
        option_rate_limit_per_minute: '30',
        option_rate_limit_burst: '90',
      },
      messages,
    );
    expect(messages).toEqual([]);
    expect(changes).toEqual({
      token: 'b',
      wrapper_key: 'detail',
      custom: 1,
      capture_additional_data: true,
      rate_limit_per_minute: 30,
      rate_limit_burst: 90,
    });
  });

  it('names the faulty option, unsets with null or an empty value, and is null when none is named', () => {
    const messages: string[] = [];
    optionChanges(
      { option_rate_limit_per_minute: 0, option_rate_limit_burst: 'lots', options: { capture_additional_data: 'maybe' } },
      messages,
    );
    expect(messages).toHaveLength(3);
    expect(messages[0]).toMatch(/^options\.capture_additional_data/);
    expect(messages[1]).toMatch(/^option_rate_limit_per_minute/);
    expect(messages[2]).toMatch(/^option_rate_limit_burst/);
    expect(optionChanges({ name: 'x' }, [])).toBeNull();
    expect(mergeOptions({ token: 't', wrapper_key: 'w' }, optionChanges({ option_token: null, options: { wrapper_key: '' } }, []))).toEqual(
      {},
    );
  });
});
