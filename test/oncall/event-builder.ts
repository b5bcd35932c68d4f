import type { OncallEvent } from '../../lib/oncall/types';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** Parses an ISO instant; a test failure beats a silent NaN. */
export function at(iso: string): number {
  const instant = Date.parse(iso);
  if (Number.isNaN(instant)) throw new Error(`bad instant in test: ${iso}`);
  return instant;
}

export function iso(instant: number): string {
  return new Date(instant).toISOString();
}

export function someEvent(overrides: Partial<OncallEvent> & Pick<OncallEvent, 'start' | 'end'>): OncallEvent {
  return {
    id: 'evt-1',
    layer: 1,
    timeZone: 'UTC',
    repeat: false,
    frequency: null,
    frequencyUnit: null,
    daysOfWeek: null,
    repeatEnd: null,
    rotation: false,
    attendees: [{ attendeeId: 'usr-a', position: 0 }],
    exceptions: [],
    parentId: null,
    ...overrides,
  };
}

export function rotationOf(...attendeeIds: string[]): Pick<OncallEvent, 'rotation' | 'attendees'> {
  return { rotation: true, attendees: attendeeIds.map((attendeeId, position) => ({ attendeeId, position })) };
}
