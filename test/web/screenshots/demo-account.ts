// A demo account for the console's screenshots (take-screenshots.ts): people, two teams, a weekly
// rotation with an override, an integration with a webhook that made an alert, alerts in every
// state (and the notifications they sent), a router and the admin's notification rule. Everything goes through the public API, as a new user would set it up.

export interface DemoClient {
  request<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
}

/** A client of the API acting with an API key or login token. */
export function apiClient(baseUrl: string, token: string): DemoClient {
  return {
    async request(method, path, body) {
      const res = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
  };
}

async function must<T = any>(client: DemoClient, method: string, path: string, body?: unknown): Promise<T> {
  const res = await client.request<T>(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export interface Demo {
  people: Record<string, string>;
  teamId: string;
  scheduleId: string;
  integrationPrefixId: string;
  alertIds: string[];
  routerId: string;
  notificationRuleId: string;
}

/** Monday 00:00 UTC of the current week. */
function mondayUtc(now: Date): Date {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * 86_400_000);
}

export async function seedDemo(baseUrl: string, client: DemoClient, adminAccountUserId: string): Promise<Demo> {
  const people: Record<string, string> = { admin: adminAccountUserId };
  await must(client, 'PUT', `/api/v4/account_users/${adminAccountUserId}`, {
    user_attributes: { name: 'Ada Admin', phones_attributes: [{ phone: '+14155550100' }] },
  });
  for (const [key, name, email, phone] of [
    ['grace', 'Grace Hopper', 'grace@example.com', '+14155550101'],
    ['linus', 'Linus Lee', 'linus@example.com', '+14155550102'],
    ['maya', 'Maya Patel', 'maya@example.com', undefined],
  ] as const) {
    const created = await must(client, 'POST', '/api/v4/account_users', {
      user_attributes: { name, emails_attributes: [{ email }], ...(phone ? { phones_attributes: [{ phone }] } : {}) },
    });
    people[key] = created.id;
  }
  const team = await must(client, 'POST', '/api/v4/teams', {
    name: 'Platform',
    member_account_user_ids: [people.grace, people.linus, people.maya],
    admin_account_user_ids: [people.admin],
  });
  await must(client, 'POST', '/api/v4/teams', {
    name: 'Databases',
    member_account_user_ids: [people.maya],
    admin_account_user_ids: [people.admin],
  });
  await must(client, 'PUT', `/api/v4/escalation_policies/${team.escalation_policy_id}`, {
    escalation_layers: [
      { layer: 1, timeout: 5, timeout_unit: 'minutes' },
      { layer: 2, timeout: 15, timeout_unit: 'minutes' },
    ],
    repeat: 1,
  });

  // A daily rotation 09:00–09:00 UTC on layer 1 and a weekly backup on layer 2, then an override.
  const monday = mondayUtc(new Date());
  const rotation = await must(client, 'POST', '/api/v4/events', {
    start_datetime: new Date(monday.getTime() - 7 * 86_400_000 + 9 * 3_600_000).toISOString(),
    end_datetime: new Date(monday.getTime() - 6 * 86_400_000 + 9 * 3_600_000).toISOString(),
    layer: 1,
    time_zone: 'UTC',
    repeat: true,
    frequency: 1,
    frequency_unit: 'daily',
    rotation: true,
    account_user_ids: [people.grace, people.linus, people.maya],
    schedule_ids: [team.schedule_id],
  });
  await must(client, 'POST', '/api/v4/events', {
    start_datetime: new Date(monday.getTime() - 7 * 86_400_000).toISOString(),
    end_datetime: new Date(monday.getTime()).toISOString(),
    layer: 2,
    time_zone: 'UTC',
    repeat: true,
    frequency: 1,
    frequency_unit: 'weekly',
    account_user_ids: [people.admin],
    schedule_ids: [team.schedule_id],
  });
  const wednesday = new Date(monday.getTime() + 2 * 86_400_000 + 9 * 3_600_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  const wall = (d: Date) =>
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
  await must(client, 'POST', `/api/v4/events/${rotation.id}/override`, {
    start_time: wall(new Date(wednesday.getTime() + 3 * 3_600_000)),
    end_time: wall(new Date(wednesday.getTime() + 9 * 3_600_000)),
    layer: 1,
    time_zone: 'UTC',
    account_user_ids: [people.admin],
    action_time: wednesday.toISOString(),
  });

  const integration = await must(client, 'POST', '/api/v4/integrations', {
    name: 'Prometheus production',
    urgency: 'high',
    integration_type_id: 'prometheus',
    team_ids: [team.id],
  });
  await must(client, 'POST', '/api/v4/integrations', {
    name: 'Uptime checks',
    urgency: 'medium',
    integration_type_id: 'webhook',
    team_ids: [team.id],
  });

  const alertIds: string[] = [];
  const titles: [string, string][] = [
    ['Checkout latency p99 above 2 s', 'critical'],
    ['Disk 91% full on db-3', 'high'],
    ['Certificate for api.example.com expires in 7 days', 'low'],
    ['Error rate 5xx above 1% on payments', 'critical'],
    ['Queue depth growing on ingest', 'medium'],
  ];
  for (const [title, urgency] of titles) {
    const alert = await must(client, 'POST', '/api/v4/alerts', {
      title,
      urgency,
      destination_team_ids: [team.id],
      description: `${title}. Runbook: https://runbooks.example.com`,
    });
    alertIds.push(alert.id);
  }
  await must(client, 'POST', `/api/v4/alerts/${alertIds[1]}/acknowledge`);
  await must(client, 'POST', `/api/v4/alerts/${alertIds[2]}/resolve`);
  await must(client, 'POST', `/api/v4/alerts/${alertIds[0]}/comments`, { text: 'Looking at the load balancer now.' });
  await must(client, 'PUT', `/api/v4/alerts/${alertIds[3]}`, {
    meta: { incident: true, incident_severity: 'SEV-2', incident_message: 'Payments degraded' },
  });

  // A router: payments alerts become incidents for the team; the rest go to its default receiver.
  const router = await must(client, 'POST', '/api/v4/routers', {
    name: 'Payments',
    default_receiver_team_id: team.id,
    rules: [
      '---',
      'rules:',
      '  # Payments and checkout: an incident, paged to Platform at once',
      '  - match:',
      '      alert.urgency: critical',
      '      alert.title: {$regex: "payments|checkout", $options: i}',
      '    actions:',
      '      - type: incident',
      '        severity: SEV-2',
      '        message: "{{alert.title}}"',
      '      - type: assign',
      `        receiver: ${team.prefix_id}`,
      '  # Low urgency: tagged, no page at night',
      '  - match:',
      '      alert.urgency: low',
      '    actions:',
      '      - type: setval',
      '        map: {tags: [low]}',
      '',
    ].join('\n'),
  });
  // The admin's notification rule: push at once, a call if the page is unanswered.
  const rule = await must(client, 'POST', '/api/v4/notification_rules', {
    name: 'Push, then call',
    rules: [
      'rules:',
      '  - match:',
      '      alert.urgency: {$in: [high, critical]}',
      '    actions:',
      '      - type: notify',
      '        channels: [push, email]',
      '        timeout: 2m',
      '      - type: notify',
      '        channels: [voice]',
      '        timeout: 5m',
      '  - match: {always: true}',
      '    actions:',
      '      - type: notify',
      '        channels: [email]',
      '        timeout: 10m',
      '',
    ].join('\n'),
  });
  await must(client, 'PUT', `/api/v4/account_users/${adminAccountUserId}`, { notification_rule_id: rule.id });

  // A monitoring tool posts to the integration's inbound address, without credentials.
  const inbound = await fetch(`${baseUrl}/integration/${integration.prefix_id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      version: '4',
      groupKey: '{}:{alertname="HighMemory"}',
      status: 'firing',
      receiver: 'oncall',
      commonLabels: { alertname: 'HighMemory', severity: 'warning' },
      commonAnnotations: { summary: 'Memory above 90% on web-7' },
      alerts: [{ status: 'firing', labels: { alertname: 'HighMemory' }, annotations: {} }],
    }),
  });
  if (inbound.status !== 202) throw new Error(`inbound webhook: ${inbound.status}`);
  return {
    people,
    teamId: team.id,
    scheduleId: team.schedule_id,
    integrationPrefixId: integration.prefix_id,
    alertIds,
    routerId: router.id,
    notificationRuleId: rule.id,
  };
}
