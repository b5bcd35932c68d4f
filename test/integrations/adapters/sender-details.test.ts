import { describe, expect, it } from 'vitest';
import { capDetails, datum, DETAIL_LIMITS, otherFields } from '../../../lib/integrations/adapters/sender-details';

describe('sender details', () => {
  it('types each value: link, image (under an image-ish label), string, number, boolean, json', () => {
    expect(datum('runbook', 'https://runbooks.example.org/x')).toEqual({
      type: 'link',
      label: 'runbook',
      value: 'https://runbooks.example.org/x',
    });
    expect(datum('SNAPSHOT', 'https://p.example.org/a.png')).toEqual({
      type: 'image',
      label: 'SNAPSHOT',
      value: 'https://p.example.org/a.png',
    });
    expect(datum('host', ' web-1 ')).toEqual({ type: 'string', label: 'host', value: 'web-1' });
    expect(datum('n', 3)).toEqual({ type: 'number', label: 'n', value: 3 });
    expect(datum('b', false)).toEqual({ type: 'boolean', label: 'b', value: false });
    expect(datum('o', { a: 1 })).toEqual({ type: 'json', label: 'o', value: { a: 1 } });
    for (const nothing of [null, undefined, '', '  ', [], {}, Number.NaN]) expect(datum('x', nothing)).toBeUndefined();
  });

  it('keeps the fields not already on the alert, comparing keys loosely and skipping repeated values', () => {
    const kept = otherFields(
      { ALERT_TITLE: 'Down', alertId: '7', Link: 'https://x.example', copy: 'Down', note: 'n' },
      ['alert_title', 'alert-id'],
      ['Down'],
    );
    expect(kept.map((d) => d.label)).toEqual(['Link', 'note']);
  });

  it('cuts a value over 2 KB on a character boundary and says so', () => {
    const [cut] = capDetails([{ type: 'string', label: 'log', value: 'é'.repeat(3000) }]);
    expect(Buffer.byteLength(String(cut.value))).toBeLessThanOrEqual(DETAIL_LIMITS.valueBytes);
    expect(cut.value).toMatch(/^é+ … \[truncated: 6000 bytes in all; the full value is in the stored request\]$/);
    const [json] = capDetails([{ type: 'json', label: 'big', value: { text: 'x'.repeat(5000) } }]);
    expect(json).toMatchObject({ type: 'string', label: 'big', value: expect.stringMatching(/^\{"text":"x+ … \[truncated: 5011 bytes/) });
  });

  it('keeps at most 50 entries, the last a marker counting the rest', () => {
    const many = Array.from({ length: 80 }, (_, i) => ({ type: 'number', label: `n${i}`, value: i }));
    const kept = capDetails(many);
    expect(kept).toHaveLength(DETAIL_LIMITS.entries);
    expect(kept[48]).toEqual({ type: 'number', label: 'n48', value: 48 });
    expect(kept[49]).toMatchObject({ label: 'truncated', value: expect.stringMatching(/^31 more detail\(s\) \(\d+ bytes\) not kept/) });
    expect(capDetails(many.slice(0, 50))).toHaveLength(50); // exactly 50 fit without a marker
  });

  it('keeps at most 16 KB in all', () => {
    const big = Array.from({ length: 20 }, (_, i) => ({ type: 'string', label: `part${i}`, value: 'y'.repeat(1500) }));
    const kept = capDetails(big);
    const size = kept.reduce((sum, d) => sum + Buffer.byteLength(d.label) + Buffer.byteLength(String(d.value)), 0);
    expect(size).toBeLessThanOrEqual(DETAIL_LIMITS.totalBytes);
    expect(kept.at(-1)).toMatchObject({ label: 'truncated' });
    expect(kept.length).toBeGreaterThan(8);
  });
});
