// Chat webhooks under the outbound guard, as a deployment runs without ALLOW_PRIVATE_AUTOMATION_TARGETS
// (docs/api.md#chat-webhooks): an http URL or an IP-literal host on a loopback, private or metadata
// address is refused when saved (422 naming the entry); a host name that resolves to one is refused
// when posting, logged on the team, and the receiver sees no connection.
import { describe, expect, it } from 'vitest';
import { settleQueues } from '../support/queues';
import { useService, type TestService } from '../support/runtime';
import { useHttpTarget } from '../support/http-target';
import { person, team } from '../escalation/support';

const target = useHttpTarget();
let service: TestService;
let onCall: string;

useService(
  async (started) => {
    service = started;
    onCall = (await person(service.admin)).id;
  },
  { pollerConcurrency: 0 },
);

const messages = (res: { body: any }) => (res.body?.errors ?? []).map((e: { message: string }) => e.message) as string[];

describe('the outbound guard on chat webhooks', () => {
  it('refuses plain http and private IP literals when saved, naming each entry', async () => {
    const { id } = await team(service.admin, { layers: [[onCall]] });
    const port = new URL(target().url).port;
    const res = await service.admin.put(`/api/v4/teams/${id}`, {
      chat_webhooks: [
        { type: 'slack', url: 'https://hooks.slack.com/services/T0/B0/x' },
        { type: 'slack', url: 'http://hooks.slack.com/services/T0/B0/y' },
        { type: 'mattermost', url: `https://127.0.0.1:${port}/hooks/x` },
        { type: 'discord', url: 'https://169.254.169.254/latest' },
        { type: 'msteams', url: 'https://[::1]/x' },
        { type: 'google_chat', url: 'https://2130706433/x' },
      ],
    });
    expect(res.status).toBe(422);
    expect(messages(res)).toEqual([
      'chat_webhooks[1].url must be an https URL',
      'chat_webhooks[2].url is refused: 127.0.0.1 is a loopback address',
      'chat_webhooks[3].url is refused: 169.254.169.254 is a link-local address (cloud metadata)',
      'chat_webhooks[4].url is refused: [::1] is a loopback address',
      'chat_webhooks[5].url is refused: 127.0.0.1 is a loopback address',
    ]);
    expect((await service.admin.get(`/api/v4/teams/${id}`)).body.chat_webhooks).toEqual([]);
  });

  it('refuses a host name that resolves to loopback when posting: logged on the team, no connection made', async () => {
    const port = new URL(target().url).port;
    const secretPath = '/hooks/s3cr3t-token';
    const chats = await team(service.admin, { layers: [[onCall]] });
    const saved = await service.admin.put(`/api/v4/teams/${chats.id}`, {
      chat_webhooks: [{ type: 'mattermost', url: `https://localhost:${port}${secretPath}` }],
    });
    expect(saved.status, saved.text).toBe(200);
    const alert = await service.admin.post('/api/v4/alerts', { title: 'Refused', urgency: 'low', destination_team_ids: [chats.id] });
    expect(alert.status).toBe(201);
    await settleQueues(service, ['routing', 'escalation', 'webhooks']);

    expect(target().connections).toBe(0);
    const logs = (await service.admin.get(`/log?owner_id=tem_${chats.id}`)).body.data;
    expect(logs).toHaveLength(1);
    expect(logs[0].data).toMatchObject({ outcome: 'failed', status: null, url: `https://localhost:${port}/…`, chat_type: 'mattermost' });
    expect(logs[0].data.error).toMatch(/refused: it resolves to (127\.0\.0\.1|::1), a loopback address/);
    expect(JSON.stringify(logs)).not.toContain('s3cr3t');
  });
});
