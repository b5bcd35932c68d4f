// The live_call integration type (issue 24, docs/api.md#live-call-routing): a phone number of the
// deployment's SIP media application bound to an integration; a call to it opens an alert and rings
// whoever is on call, layer by layer. Pure: the options' checks.

export const LIVE_CALL_SLUG = 'live_call';
/** How long each layer's person is rung before the next layer's (option_ring_seconds). */
export const DEFAULT_RING_SECONDS = 20;
export const MIN_RING_SECONDS = 5;
/** CallAndBridge's own bound on CallTimeoutSeconds. */
export const MAX_RING_SECONDS = 120;

const E164 = /^\+[1-9]\d{6,14}$/;

/** Normalizes a live call's options in place (the number trimmed, ring seconds a number) and returns the faults, each naming its option. */
export function liveCallFaults(options: Record<string, unknown>): string[] {
  const faults: string[] = [];
  const phone = typeof options.phone_number === 'string' ? options.phone_number.replace(/[\s().-]/g, '') : options.phone_number;
  if (phone === undefined || phone === null || phone === '')
    faults.push("options.phone_number can't be blank (the E.164 number callers dial)");
  else if (typeof phone !== 'string' || !E164.test(phone)) faults.push('options.phone_number must be an E.164 phone number (+12065550100)');
  else options.phone_number = phone;
  const ring = options.ring_seconds;
  if (ring === undefined || ring === null || ring === '') options.ring_seconds = DEFAULT_RING_SECONDS;
  else {
    const seconds = typeof ring === 'number' ? ring : typeof ring === 'string' && /^\s*\d+\s*$/.test(ring) ? Number(ring) : NaN;
    if (!Number.isSafeInteger(seconds) || seconds < MIN_RING_SECONDS || seconds > MAX_RING_SECONDS)
      faults.push(`options.ring_seconds must be a whole number of seconds from ${MIN_RING_SECONDS} to ${MAX_RING_SECONDS}`);
    else options.ring_seconds = seconds;
  }
  return faults;
}
