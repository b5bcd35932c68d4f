import { describe, expect, it } from 'vitest';
import { createMember, type ApiClient } from '../support/api-client';
import { signupAccount, useService, type TestService } from '../support/runtime';
import { createIntegration } from '../integrations/support';

let service: TestService;
let admin: ApiClient;
let integration: { id: string; prefix_id: string };

useService(async (started) => {
  service = started;
  admin = service.admin;
  integration = await createIntegration(admin, {});
});

const iso = (ms: number) => new Date(ms).toISOString();

describe('maintenance windows', () => {
  it('reads datetimes without an offset in the window’s time zone, shows UTC, hides description', async () => {
    const res = await admin.post('/api/v4/maintenance_windows', {
      name: 'Patch night',
      description: 'kernel upgrade',
      start_datetime: '2026-07-01 22:00',
      end_datetime: '2026-07-02T02:00:00+02:00',
      time_zone: 'Berlin',
      integration_ids: [integration.prefix_id],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Patch night',
      start_datetime: '2026-07-01T20:00:00.000Z',
      end_datetime: '2026-07-02T00:00:00.000Z',
      time_zone: 'Berlin',
      integration_ids: [integration.id],
    });
    expect(res.body.prefix_id).toBe(`mtw_${res.body.id}`);
    expect(res.body.description).toBeUndefined();
    expect((await admin.get(`/api/v4/maintenance_windows/${res.body.prefix_id}`)).body).toEqual(res.body);
  });

  it('applies the DST gap rule: a wall time that does not exist takes the offset before the gap', async () => {
    const res = await admin.post('/api/v4/maintenance_windows', {
      name: 'Gap',
      start_datetime: '2026-03-08T02:30:00',
      end_datetime: '2026-03-08T05:00:00',
      time_zone: 'America/New_York',
      integration_ids: [integration.id],
    });
    expect(res.status).toBe(201);
    expect(res.body.start_datetime).toBe('2026-03-08T07:30:00.000Z');
    expect(res.body.end_datetime).toBe('2026-03-08T09:00:00.000Z');
  });

  it('refuses bad input with 422 naming the field', async () => {
    const base = {
      name: 'W',
      start_datetime: '2030-01-01T10:00:00Z',
      end_datetime: '2030-01-01T12:00:00Z',
      time_zone: 'UTC',
      integration_ids: [integration.id],
    };
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ end_datetime: '2030-01-01T09:00:00Z' }, /^end_datetime must be after start_datetime/],
      [{ end_datetime: base.start_datetime }, /^end_datetime must be after start_datetime/],
      [{ time_zone: 'Atlantis' }, /^time_zone/],
      [{ start_datetime: 'tomorrow' }, /^start_datetime must be an ISO 8601 datetime/],
      [{ end_datetime: '2030-01-01T12:00:00+99:00' }, /^end_datetime must be an ISO 8601 datetime/],
      [{ integration_ids: [] }, /^integration_ids/],
      [{ integration_ids: ['01KDVDNA08AAAAAAAAAAAAAAAA'] }, /^integration_ids contains an unknown integration/],
      [{ name: '' }, /^name can't be blank/],
    ];
    for (const [change, message] of cases) {
      const res = await admin.post('/api/v4/maintenance_windows', { ...base, ...change });
      expect(res.status, JSON.stringify(change)).toBe(422);
      expect(res.body.errors[0].message).toMatch(message);
    }
  });

  it('updates partially, re-checking the span, and deletes', async () => {
    const created = (
      await admin.post('/api/v4/maintenance_windows', {
        name: 'Edit',
        start_datetime: '2030-01-01T10:00:00Z',
        end_datetime: '2030-01-01T12:00:00Z',
        time_zone: 'UTC',
        integration_ids: [integration.id],
      })
    ).body;
    const moved = await admin.put(`/api/v4/maintenance_windows/${created.id}`, { end_datetime: '2030-01-01 15:00', time_zone: 'London' });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      name: 'Edit',
      start_datetime: created.start_datetime,
      end_datetime: '2030-01-01T15:00:00.000Z',
      time_zone: 'London',
    });
    expect((await admin.put(`/api/v4/maintenance_windows/${created.id}`, { start_datetime: '2030-01-02T00:00:00Z' })).status).toBe(422);
    expect((await admin.delete(`/api/v4/maintenance_windows/${created.id}`)).status).toBe(204);
    expect((await admin.get(`/api/v4/maintenance_windows/${created.id}`)).status).toBe(404);
  });

  it('lists with filters; non-admins read but may not change; other accounts see nothing', async () => {
    const list = await admin.get(`/api/v4/maintenance_windows?integration_ids=${integration.id}`);
    expect(list.status).toBe(200);
    expect(list.body.total_count).toBeGreaterThan(0);
    const { client } = await createMember(admin);
    const window = list.body.data[0];
    expect((await client.get(`/api/v4/maintenance_windows/${window.id}`)).status).toBe(200);
    expect((await client.put(`/api/v4/maintenance_windows/${window.id}`, { name: 'x' })).status).toBe(403);
    expect((await client.delete(`/api/v4/maintenance_windows/${window.id}`)).status).toBe(403);
    expect(
      (
        await client.post('/api/v4/maintenance_windows', {
          name: 'n',
          start_datetime: iso(Date.now()),
          end_datetime: iso(Date.now() + 1000),
          time_zone: 'UTC',
          integration_ids: [integration.id],
        })
      ).status,
    ).toBe(403);
    const other = await signupAccount(service);
    expect((await other.client.get(`/api/v4/maintenance_windows/${window.id}`)).status).toBe(404);
    expect((await other.client.delete(`/api/v4/maintenance_windows/${window.id}`)).status).toBe(404);
    expect((await other.client.get('/api/v4/maintenance_windows')).body.total_count).toBe(0);
  });
});

describe('inbound webhooks during a maintenance window', () => {
  it('logs and ignores requests while the window lasts, and accepts them again after it', async () => {
    const target = await createIntegration(admin, {});
    const other = await createIntegration(admin, {});
    const window = await admin.post('/api/v4/maintenance_windows', {
      name: 'Now',
      start_datetime: iso(Date.now() - 60_000),
      end_datetime: iso(Date.now() + 3_600_000),
      time_zone: 'UTC',
      integration_ids: [target.id],
    });
    expect(window.status).toBe(201);

    const ignored = await service.anonymous.post(`/integration/${target.prefix_id}`, { title: 'During maintenance', id: 'm-1' });
    expect(ignored.status).toBe(202);
    expect(ignored.body).toEqual({ log_id: expect.stringMatching(/^log_[0-9A-Z]{26}$/), ignored: 'maintenance_window' });
    // Only the integrations the window lists are affected.
    const unaffected = await service.anonymous.post(`/integration/${other.prefix_id}`, { title: 'Elsewhere' });
    expect(unaffected.body.ignored).toBeUndefined();

    // A window that is over (or not begun) no longer applies.
    await admin.put(`/api/v4/maintenance_windows/${window.body.id}`, { end_datetime: iso(Date.now() - 1000) });
    const after = await service.anonymous.post(`/integration/${target.prefix_id}`, { title: 'After maintenance' });
    expect(after.status).toBe(202);
    expect(after.body.ignored).toBeUndefined();
    await admin.put(`/api/v4/maintenance_windows/${window.body.id}`, {
      start_datetime: iso(Date.now() + 3_600_000),
      end_datetime: iso(Date.now() + 7_200_000),
    });
    expect((await service.anonymous.post(`/integration/${target.prefix_id}`, { title: 'Before' })).body.ignored).toBeUndefined();
  });
});
