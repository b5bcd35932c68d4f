// Durations of rule YAML (docs/api.md#escalation-and-notifications): the `ms` notation (`30s`, `5m`, `1h`, `1d`, `1.5h`,
// `500ms`, long unit names too) or a number of minutes (`5`, also written as the string "5").
import { LIMITS } from './limits';

const UNIT_MS: Record<string, number> = {
  ms: 1,
  msec: 1,
  msecs: 1,
  millisecond: 1,
  milliseconds: 1,
  s: 1000,
  sec: 1000,
  secs: 1000,
  second: 1000,
  seconds: 1000,
  m: 60_000,
  min: 60_000,
  mins: 60_000,
  minute: 60_000,
  minutes: 60_000,
  h: 3_600_000,
  hr: 3_600_000,
  hrs: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000,
  d: 86_400_000,
  day: 86_400_000,
  days: 86_400_000,
  w: 604_800_000,
  week: 604_800_000,
  weeks: 604_800_000,
};

const NOTATION = /^(\d+(?:\.\d+)?|\.\d+)\s*([a-z]+)?$/i;

export type DurationResult = { ok: true; ms: number } | { ok: false; message: string };

/** Milliseconds of a duration, or a message that completes "<path> …". */
export function parseDuration(value: unknown): DurationResult {
  let ms: number;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return { ok: false, message: 'must be a duration of zero or more' };
    ms = value * 60_000;
  } else if (typeof value === 'string') {
    const match = NOTATION.exec(value.trim());
    if (!match) return { ok: false, message: `is not a duration (write 30s, 5m, 1h, 1d or a number of minutes): ${JSON.stringify(value)}` };
    const unit = match[2]?.toLowerCase();
    const factor = unit === undefined ? 60_000 : UNIT_MS[unit];
    if (factor === undefined) return { ok: false, message: `has an unknown duration unit: ${JSON.stringify(value)}` };
    ms = Number(match[1]) * factor;
  } else {
    return { ok: false, message: 'must be a duration (30s, 5m, 1h, 1d or a number of minutes)' };
  }
  ms = Math.round(ms);
  if (ms > LIMITS.durationMs) return { ok: false, message: `must be at most ${LIMITS.durationMs / 86_400_000} days` };
  return { ok: true, ms };
}
