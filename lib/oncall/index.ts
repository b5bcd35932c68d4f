// The on-call engine: pure functions from events to occurrences and on-call entries.
export * from './types';
export { TIME_ZONE_NAMES, resolveTimeZone } from './time-zones';
export { expandOccurrences, findOccurrenceStartingAt, lastOccurrenceBefore, planTermination, visitOccurrences } from './recurrence';
export type { OccurrenceOptions, OccurrenceVisitor, TerminationPlan } from './recurrence';
export { oncallAt, spansInWindow } from './oncall-spans';
