// Keys senders already hold, carried over by an import (lib/integrations/sender-keys.ts): an Opsgenie
// API key in `GenieKey …` and a PagerDuty integration key as `routing_key` name the integration
// made from theirs, so the sender changes only its URL; a key another account's live integration
// holds stays with it; a key whose integration is gone names nothing.
import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getIntegration } from '../../lib/integrations/store';
import { carrySenderKey } from '../../lib/integrations/sender-keys';
import type { IntegrationRecord } from '../../lib/integrations/records';
import { parseId } from '../../lib/ids';
import { createIntegration, postRaw, settledAlerts } from '../integrations/support';
import { signupAccount, useService, type TestService } from '../support/runtime';

let service: TestService;
useService(async (started) => {
  service = started;
});

const uid = (name: string) => `${name}-${Math.random().toString(36).slice(2, 10)}`;

async function integrationRecord(created: { id: string; [field: string]: unknown }): Promise<IntegrationRecord> {
  const record = await getIntegration(String(created.account_id), parseId('integration', created.id)!);
  expect(record).not.toBeNull();
  return record!;
}

const enqueue = (routingKey: string, dedupKey: string) =>
  postRaw(
    service.url,
    '/v2/enqueue',
    JSON.stringify({
      routing_key: routingKey,
      event_action: 'trigger',
      dedup_key: dedupKey,
      payload: { summary: 'Disk full', source: 'db1', severity: 'critical' },
    }),
    { 'content-type': 'application/json' },
  );

const createOpsgenieAlert = (genieKey: string, alias: string) =>
  postRaw(service.url, '/v2/alerts', JSON.stringify({ message: 'Disk full on db1', alias, priority: 'P1' }), {
    'content-type': 'application/json',
    authorization: `GenieKey ${genieKey}`,
  });

describe('sender keys carried over by an import', () => {
  it('a PagerDuty integration key as routing_key reaches the integration made from it', async () => {
    const created = await createIntegration(service.admin, { type: 'pagerduty_events_v2', urgency: 'medium' });
    const key = randomBytes(16).toString('hex');
    expect((await enqueue(key, uid('before'))).status).toBe(400);

    expect(await carrySenderKey(await integrationRecord(created), key, 'pagerduty')).toBe(true);
    const dedupKey = uid('pd');
    const res = await enqueue(key, dedupKey);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const [alert] = await settledAlerts(service.admin, dedupKey);
    expect(alert).toMatchObject({ title: 'Disk full', source_id: created.id });
  });

  it('an Opsgenie API key in GenieKey reaches the integration made from it; an unknown one is 401', async () => {
    const created = await createIntegration(service.admin, { type: 'opsgenie', urgency: 'low' });
    const key = randomUUID();
    expect(await carrySenderKey(await integrationRecord(created), key, 'opsgenie')).toBe(true);
    const alias = uid('og');
    const res = await createOpsgenieAlert(key, alias);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const [alert] = await settledAlerts(service.admin, alias);
    expect(alert).toMatchObject({ title: 'Disk full on db1', urgency: 'critical', source_id: created.id });

    const unknown = await createOpsgenieAlert(randomUUID(), uid('og'));
    expect(unknown.status).toBe(401);
  });

  it("stays with another account's live integration, and moves once that integration is deleted", async () => {
    const first = await createIntegration(service.admin, { type: 'opsgenie', urgency: 'low' });
    const key = randomUUID();
    expect(await carrySenderKey(await integrationRecord(first), key, 'opsgenie')).toBe(true);

    const other = await signupAccount(service, 'Mover');
    const second = await createIntegration(other.client, { type: 'opsgenie', urgency: 'low' });
    expect(await carrySenderKey(await integrationRecord(second), key, 'opsgenie')).toBe(false);
    const alias = uid('og');
    expect((await createOpsgenieAlert(key, alias)).status).toBe(202);
    expect((await settledAlerts(service.admin, alias))[0].source_id).toBe(first.id);

    expect((await service.admin.delete(`/api/v4/integrations/${first.id}`)).status).toBe(204);
    expect((await createOpsgenieAlert(key, uid('og'))).status).toBe(401);
    expect(await carrySenderKey(await integrationRecord(second), key, 'opsgenie')).toBe(true);
    const moved = uid('og');
    expect((await createOpsgenieAlert(key, moved)).status).toBe(202);
    expect((await settledAlerts(other.client, moved))[0].source_id).toBe(second.id);
  });
});
