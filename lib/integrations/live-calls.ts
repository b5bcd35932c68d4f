// Live call integrations (issue 24) apart from their calls (lib/voice-calls/live-call.ts): their
// options checked on save, and their number's pointer kept in step with the integration: claimed
// before the integration is stored (a number another integration holds is a 409, and nothing is
// stored), released once it is saved with another number or type, or deleted.
import { Conflict, Invalid } from '../http/errors';
import { findIntegrationType } from './integration-types';
import { DEFAULT_RING_SECONDS, LIVE_CALL_SLUG, liveCallFaults } from './live-call-options';
import { claimLiveCallNumber, releaseLiveCallNumber } from './live-call-store';
import type { IntegrationRecord } from './records';

export function isLiveCall(record: Pick<IntegrationRecord, 'integration_type_id'>): boolean {
  return findIntegrationType(record.integration_type_id)?.slug === LIVE_CALL_SLUG;
}

/** Checks (and normalizes) a live call's options as they will be stored; Invalid naming each fault. */
export function checkLiveCall(record: Pick<IntegrationRecord, 'integration_type_id' | 'options'>): void {
  if (!isLiveCall(record)) return;
  const faults = liveCallFaults(record.options);
  if (faults.length > 0) throw new Invalid(faults);
}

const numberOf = (record: IntegrationRecord | null): string | null =>
  record && isLiveCall(record) && typeof record.options.phone_number === 'string' ? record.options.phone_number : null;

/** Before the integration is stored: its number bound to it (a 409 when another integration holds it). */
export async function claimLiveCall(record: IntegrationRecord): Promise<void> {
  const number = numberOf(record);
  if (number && !(await claimLiveCallNumber(number, record.account_id, record.id)))
    throw new Conflict(`options.phone_number ${number} is already bound to another live_call integration`);
}

/** After it was saved (`after`) or deleted (null): the number it no longer has is free again. */
export async function releaseLiveCall(before: IntegrationRecord, after: IntegrationRecord | null): Promise<void> {
  const number = numberOf(before);
  if (number && number !== numberOf(after)) await releaseLiveCallNumber(number, before.id);
}

/** The ring time of each layer, as stored (the default when absent). */
export const ringSecondsOf = (record: IntegrationRecord): number =>
  typeof record.options.ring_seconds === 'number' ? record.options.ring_seconds : DEFAULT_RING_SECONDS;
