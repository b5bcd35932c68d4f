// Escalation (contract §8) through the real local server, with TIME_SCALE=600 (a 5-minute layer
// lasts half a second) and the memory outbox: layers, skipped empty layers, repeat, reassign, drop
// and its notifications, account users paged alone, teams side by side, acknowledge and resolve
// stopping everything, reject moving on at once, hand-off.
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { useService } from '../support/runtime';
import { alertTo, notificationsOf, pagedPeople, person, sentFor, sleep, team, waitFor, type Person } from '../escalation/support';

let admin: ApiClient;

useService(
  async (service) => {
    admin = service.admin;
  },
  { env: { TIME_SCALE: '600' } },
);

describe('layers', () => {
  it('pages layer 1, then layer 2 at its timeout, then drops with the drop notifications', async () => {
    const [a, b, boss] = [await person(admin), await person(admin), await person(admin)];
    const t = await team(admin, { layers: [[a.id], [b.id]], admins: [boss.id], members: [a.id, b.id], drop_notifications: 'team_admins' });
    const alert = await alertTo(admin, { teams: [t.id] });
    const first = await sentFor(admin, alert.id, (s) => pagedPeople(s).length >= 1);
    expect(pagedPeople(first)).toEqual([a.id]);
    const all = await sentFor(admin, alert.id, (s) => s.some((n) => n.template === 'alert_dropped'));
    expect(pagedPeople(all)).toEqual([a.id, b.id]);
    expect(pagedPeople(all, 'alert_dropped')).toEqual([boss.id]);
    expect((await admin.get(`/api/v4/alerts/${alert.id}`)).body.status).toBe('dropped');
    expect((await admin.get(`/alert/${alert.prefix_id}`)).body.status).toBe('dropped');
  });
});
