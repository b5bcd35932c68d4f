// A path's :id also takes an alert's tiny id, the number people see (issue 9): every alert route of
// both interfaces, scoped to the caller's account like any other id.
import { describe, expect, it } from 'vitest';
import { signupAccount, useService, type TestService } from '../support/runtime';
import { adminAccountUser } from '../integrations/support';

let service: TestService;
let destination: string;

useService(async (started) => {
  service = started;
  destination = (await adminAccountUser(service.admin)).id;
});

async function newAlert(title: string) {
  const res = await service.admin.post('/api/v4/alerts', { title, urgency: 'high', destination_account_user_ids: [destination] });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; tiny_id: number };
}

describe('tiny ids in paths', () => {
  it('every alert route of both interfaces takes the tiny id', async () => {
    const alert = await newAlert('Tiny');
    const tiny = alert.tiny_id;
    expect((await service.admin.get(`/api/v4/alerts/${tiny}`)).body.id).toBe(alert.id);
    expect((await service.admin.get(`/alert/${tiny}`)).body.id).toBe(`alt_${alert.id}`);
    const renamed = await service.admin.put(`/api/v4/alerts/${tiny}`, { title: 'Renamed' });
    expect(renamed.status).toBe(200);
    expect((await service.admin.put(`/alert/${tiny}`, { title: 'Renamed again' })).body.title).toBe('Renamed again');
    expect((await service.admin.post(`/api/v4/alerts/${tiny}/comments`, { text: 'seen' })).status).toBe(201);
    expect((await service.admin.get(`/api/v4/alerts/${tiny}/comments`)).body.total_count).toBe(1);
    const acknowledged = await service.admin.post(`/alert/${tiny}/acknowledge`);
    expect(acknowledged.status, acknowledged.text).toBe(200);
    expect(acknowledged.body.status).toBe('acknowledged');
    expect((await service.admin.post(`/api/v4/alerts/${tiny}/resolve`)).body.status).toBe('resolved');
    expect((await service.admin.post(`/alert/${tiny}/archive`)).body.status).toBe('archived');
    expect((await service.admin.delete(`/alert/${tiny}`)).status).toBe(204);
    expect((await service.admin.get(`/api/v4/alerts/${tiny}`)).status).toBe(404);
  });

  it('the views and handoff take it too; numbers that are not tiny ids are absent', async () => {
    const incident = await service.admin.post('/incident', { title: 'Fire', destination_ids: [`acu_${destination}`] });
    expect(incident.status, incident.text).toBe(201);
    const tiny = incident.body.tinyId ?? incident.body.tiny_id;
    expect((await service.admin.get(`/incident/${tiny}`)).body.id).toBe(incident.body.id);
    expect((await service.admin.get(`/incident/${tiny}/logs`)).status).toBe(200);
    const handed = await service.admin.post(`/alert/${tiny}/handoff`, { to: `usr_${(await adminAccountUser(service.admin)).user_id}` });
    expect(handed.status, handed.text).toBe(200);
    for (const id of ['0', '-1', '01', '1.0', '99999', '1e3', '9'.repeat(20)]) {
      expect((await service.admin.get(`/api/v4/alerts/${id}`)).status, id).toBe(404);
      expect((await service.admin.post(`/alert/${id}/acknowledge`)).status, id).toBe(404);
    }
  });

  it("another account's tiny id names its own alert, never this one", async () => {
    const mine = await newAlert('Mine');
    const other = await signupAccount(service, 'TinyIso');
    // The other account has no alerts yet: the same number is simply absent there.
    expect((await other.client.get(`/api/v4/alerts/${mine.tiny_id}`)).status).toBe(404);
    expect((await other.client.post(`/alert/${mine.tiny_id}/acknowledge`)).status).toBe(404);
    expect((await service.admin.get(`/api/v4/alerts/${mine.tiny_id}`)).body.status).toBe('open');
  });
});
