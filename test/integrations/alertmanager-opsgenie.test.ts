// The real Prometheus Alertmanager, configured as for Opsgenie (opsgenie_configs, update_alerts and
// send_resolved) with only its api_url pointing at the local service (docs/api.md#opsgenie-alert-api-drop-in):
// an alert posted to Alertmanager's own API opens ours, and its resolution closes it. Alertmanager is
// Debian's prometheus-alertmanager (PROMETHEUS_ALERTMANAGER names another binary); a machine without
// it skips this file, saying so.
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useService, type TestService } from '../support/runtime';
import { alertById, createIntegration, eventually } from './support';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function findAlertmanager(): string | undefined {
  const named = process.env.PROMETHEUS_ALERTMANAGER;
  if (named) return executable(named) ? named : undefined;
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of ['prometheus-alertmanager', 'alertmanager']) if (executable(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

const binary = findAlertmanager();
const SKIPPED = 'skipped: no Alertmanager binary (install prometheus-alertmanager or set PROMETHEUS_ALERTMANAGER)';
if (!binary) console.warn(`alertmanager-opsgenie.test.ts ${SKIPPED}`);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

let service: TestService;
let alertmanager: ChildProcess | undefined;
let output = '';
const workDir = mkdtempSync(join(tmpdir(), 'alertmanager-opsgenie-'));

useService((started) => {
  service = started;
});

afterAll(async () => {
  // Alertmanager writes its state into the folder as it shuts down: the folder goes once it has exited.
  const running = alertmanager;
  if (running && running.exitCode === null && running.signalCode === null) {
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    running.kill('SIGKILL');
  }
  rmSync(workDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
});

/** Alertmanager on loopback, routing everything to one Opsgenie receiver whose API is the service. */
async function startAlertmanager(apiKey: string): Promise<string> {
  const port = await freePort();
  const config = join(workDir, 'alertmanager.yml');
  writeFileSync(
    config,
    [
      'global:',
      '  resolve_timeout: 30s',
      'route:',
      '  receiver: opsgenie-here',
      "  group_by: ['alertname']",
      '  group_wait: 1s',
      '  group_interval: 1s',
      '  repeat_interval: 1h',
      'receivers:',
      '  - name: opsgenie-here',
      '    opsgenie_configs:',
      `      - api_url: ${service.url}/`,
      `        api_key: ${apiKey}`,
      '        send_resolved: true',
      '        update_alerts: true',
      '        priority: P2',
      "        tags: 'team:db,disk'",
      '',
    ].join('\n'),
  );
  alertmanager = spawn(
    binary!,
    [
      `--config.file=${config}`,
      `--storage.path=${join(workDir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--cluster.listen-address=',
      '--log.level=debug',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  for (const stream of [alertmanager.stdout, alertmanager.stderr]) stream?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  await eventually(
    async () => {
      if (alertmanager?.exitCode !== null) throw new Error(`Alertmanager exited: ${output}`);
      const res = await fetch(`${url}/-/ready`).catch(() => null);
      return res?.ok ? true : undefined;
    },
    15_000,
    'Alertmanager ready',
  );
  return url;
}

async function postToAlertmanager(url: string, alerts: unknown[]): Promise<void> {
  const res = await fetch(`${url}/api/v2/alerts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(alerts),
  });
  expect(res.status, await res.text()).toBe(200);
}

describe.skipIf(!binary)(`Alertmanager's opsgenie_configs pointed at the service${binary ? '' : ` (${SKIPPED})`}`, () => {
  it('opens our alert when Alertmanager fires, and resolves it when the alert is resolved', { timeout: 90_000 }, async () => {
    const integration = await createIntegration(service.admin, { type: 'opsgenie', urgency: 'low' });
    const url = await startAlertmanager(integration.prefix_id);
    const labels = { alertname: 'DiskFull', instance: 'db-1', severity: 'critical' };
    const annotations = { summary: 'The data volume of db-1 is full' };
    const startsAt = new Date().toISOString();
    await postToAlertmanager(url, [{ labels, annotations, startsAt, generatorURL: 'http://prometheus.example.com/graph' }]);

    const opened = await eventually(
      async () => {
        const res = await service.admin.get('/api/v4/alerts?limit=20');
        return (res.body.data as any[]).find((alert) => alert.source_id === integration.id);
      },
      30_000,
      `our alert (Alertmanager's log:\n${output.slice(-2000)})`,
    );
    expect(opened).toMatchObject({ title: '[FIRING:1] DiskFull (db-1 critical)', urgency: 'high', status: 'open' });
    expect(opened.thirdparty_id).toMatch(/^[0-9a-f]{64}$/); // the alias: a hash of Alertmanager's group key
    expect(opened.tag_list).toEqual(['team:db', 'disk']);
    expect(opened.description).toContain('The data volume of db-1 is full');
    expect(opened.additional_data).toEqual(
      expect.arrayContaining([
        { type: 'string', label: 'details.alertname', value: 'DiskFull' },
        { type: 'string', label: 'details.instance', value: 'db-1' },
        { type: 'link', label: 'source', value: expect.stringContaining('/#/alerts?receiver=opsgenie-here') },
      ]),
    );

    await postToAlertmanager(url, [{ labels, annotations, startsAt, endsAt: new Date().toISOString() }]);
    await eventually(
      async () => ((await alertById(service.admin, opened.id)).status === 'resolved' ? true : undefined),
      30_000,
      `the resolution (Alertmanager's log:\n${output.slice(-2000)})`,
    );

    // Every request Alertmanager made was accepted and done: the create, its message and description
    // updates (accepted, not applied), and the close.
    const logs = await eventually(async () => {
      const res = await service.admin.get(`/log?owner_id=${integration.prefix_id}&limit=50`);
      const data = res.body.data as Array<{ status: string }>;
      return data.length >= 4 && data.every((log) => log.status !== 'pending') ? data : undefined;
    });
    expect(new Set(logs.map((log) => log.status))).toEqual(new Set(['processed', 'ignored']));
    expect(output).not.toMatch(/level=(error|warn).*opsgenie/i);
    expect((await alertById(service.admin, opened.id)).title).toBe('[FIRING:1] DiskFull (db-1 critical)');
  });
});
