// Delivery without a provider (docs/api.md#escalation-and-notifications): deployed, a channel nobody configured is recorded as
// failed with the reason in err, and the page still counts as sent: escalation goes on as usual.
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { useService } from '../support/runtime';
import { alertTo, pagedPeople, person, sentFor, team } from '../escalation/support';

let admin: ApiClient;

useService(
  async (service) => {
    admin = service.admin;
  },
  { env: { OUTBOX: 'none', TIME_SCALE: '600' } },
);

describe('a channel without a provider', () => {
  it('records the page as failed with the reason, and escalation goes on to the next layer', async () => {
    const [a, b] = [await person(admin), await person(admin)];
    const t = await team(admin, { layers: [[a.id], [b.id]], timeouts: [2, 2] });
    const alert = await alertTo(admin, { teams: [t.id] });
    const sent = await sentFor(admin, alert.id, (s) => pagedPeople(s).includes(b.id) && s.every((n) => n.status !== 'queued'));
    expect(pagedPeople(sent)).toEqual([a.id, b.id]);
    for (const n of sent.filter((x) => x.template === 'alert_alert')) expect(n.status).toBe('failed');
    // The earlier representation of one of those pages (escalation may have sent more since).
    const email = sent.find((x) => x.template === 'alert_alert' && x.channel === 'email')!;
    const earlier = [(await admin.get(`/notification/ntf_${email.id}`)).body];
    expect(earlier[0]).toMatchObject({ status: 'failed', provider: 'none', provider_status: 'failed', sent: null });
    expect(earlier[0].err[0]).toMatch(/no email provider is configured/);
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });
});
