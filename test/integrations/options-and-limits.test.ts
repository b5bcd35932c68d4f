import { describe, expect, it } from 'vitest';
import { leaseSize } from '../../lib/integrations/ingest/rate-limit';
import { mergeKeys as mergeOptions } from '../../lib/http/changes';
import { optionChanges } from '../../lib/integrations/schemas';

describe('rate limit leases', () => {
  it('lease one request at a time for small limits, more for large ones, never over 100', () => {
    expect(leaseSize(2)).toBe(1);
    expect(leaseSize(600)).toBe(3);
    expect(leaseSize(10_000_000)).toBe(100);
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
      },
      messages,
    );
    expect(messages).toEqual([]);
    expect(changes).toEqual({ token: 'b', wrapper_key: 'detail', custom: 1, capture_additional_data: true, rate_limit_per_minute: 30 });
  });

  it('names the faulty option, unsets with null or an empty value, and is null when none is named', () => {
    const messages: string[] = [];
    optionChanges({ option_rate_limit_per_minute: 0, options: { capture_additional_data: 'maybe' } }, messages);
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatch(/^options\.capture_additional_data/);
    expect(messages[1]).toMatch(/^option_rate_limit_per_minute/);
    expect(optionChanges({ name: 'x' }, [])).toBeNull();
    expect(mergeOptions({ token: 't', wrapper_key: 'w' }, optionChanges({ option_token: null, options: { wrapper_key: '' } }, []))).toEqual(
      {},
    );
  });
});
