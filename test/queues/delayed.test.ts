// Timers as delayed queue messages: whole seconds rounded down (a message never arrives late), at
// most 15 minutes (a later one is chained by its consumer).
import { describe, expect, it } from 'vitest';
import { delaySecondsFor, MAX_DELAY_SECONDS } from '../../lib/queues/delayed';

describe('delaySecondsFor', () => {
  it('rounds down to whole seconds and never asks for more than 15 minutes', () => {
    expect(delaySecondsFor(-5)).toBe(0);
    expect(delaySecondsFor(0)).toBe(0);
    expect(delaySecondsFor(999)).toBe(0);
    expect(delaySecondsFor(1_999)).toBe(1);
    expect(delaySecondsFor(300_000)).toBe(300);
    expect(delaySecondsFor(3_600_000)).toBe(MAX_DELAY_SECONDS);
    expect(MAX_DELAY_SECONDS).toBe(900);
  });
});
