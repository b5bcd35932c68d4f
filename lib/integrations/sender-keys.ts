// Senders keep their keys when their integrations are imported (issue 25, "zero reconfigured
// senders"): an Opsgenie API key in `Authorization: GenieKey …` and a PagerDuty integration key as
// `routing_key` of `/v2/enqueue` name the integration the importer made from the one that key
// belonged to, as its own id does. Only the importer carries keys over (docs/api.md#imports).
import { sha256 } from '../auth/passwords';
import { integrationById } from './integration-cache';
import type { IntegrationRecord } from './records';
import { getSenderKey, putSenderKey } from './sender-key-store';

/** The longest key looked up: Opsgenie's and PagerDuty's are 32–36 characters. */
const MAX_KEY_LENGTH = 200;

/** The integration a carried-over sender key names, or null (none, or its integration is gone). */
export async function integrationBySenderKey(key: string): Promise<IntegrationRecord | null> {
  const trimmed = key.trim();
  if (trimmed === '' || trimmed.length > MAX_KEY_LENGTH) return null;
  const pointer = await getSenderKey(sha256(trimmed));
  if (!pointer) return null;
  const integration = await integrationById(pointer.integration_id);
  return integration && integration.account_id === pointer.account_id ? integration : null;
}

/**
 * Makes `key` name the integration (a re-import points it at the same one again). False when the
 * key names a live integration of another account: that account keeps it.
 */
export async function carrySenderKey(integration: IntegrationRecord, key: string, source: string): Promise<boolean> {
  const trimmed = key.trim();
  if (trimmed === '' || trimmed.length > MAX_KEY_LENGTH) return false;
  return putSenderKey(sha256(trimmed), { integration_id: integration.id, account_id: integration.account_id, source }, async (holder) => {
    const held = await integrationById(holder.integration_id);
    return !held || held.account_id !== holder.account_id;
  });
}
