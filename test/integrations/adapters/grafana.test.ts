import { describe, expect, it } from 'vitest';
import { adaptPayload } from '../../../lib/integrations/adapters';
import { fixture, fixtureJson, request } from './support';

const adapt = (input: Parameters<typeof adaptPayload>[1]) => adaptPayload('grafana', input);
const UNIFIED_GROUP_KEY = '{}/{team="blue"}:{alertname="High memory usage"}';

describe('grafana adapter', () => {
  it('creates an alert from a firing unified-alerting notification, named by its groupKey', () => {
    expect(adapt(request(fixture('grafana/unified-firing.json')))).toEqual([
      {
        action: 'create',
        thirdpartyId: UNIFIED_GROUP_KEY,
        alert: {
          title: 'High memory usage',
          description: 'Memory above 90% in zone us-1\n\nThe system has high memory usage',
          urgency: 'medium',
          additionalData: [
            {
              type: 'json',
              label: 'commonLabels',
              value: { alertname: 'High memory usage', severity: 'warning', team: 'blue', zone: 'us-1' },
            },
            { type: 'link', label: 'runbook_url', value: 'https://runbooks.example.org/high-memory' },
            { type: 'link', label: 'externalURL', value: 'https://grafana.example.org/' },
            { type: 'number', label: 'alerts_firing', value: 1 },
            {
              type: 'json',
              label: 'alerts[0]',
              value: expect.objectContaining({
                labels: { alertname: 'High memory usage', severity: 'warning', team: 'blue', zone: 'us-1' },
                startsAt: '2026-03-02T09:51:03.157076+02:00',
                generatorURL: 'https://grafana.example.org/alerting/grafana/1afz29v7z/view',
                dashboardURL: 'https://grafana.example.org/d/dashboard_uid?orgId=1',
                panelURL: 'https://grafana.example.org/d/dashboard_uid?orgId=1&viewPanel=1',
                silenceURL: expect.stringMatching(/^https:\/\/grafana\.example\.org\/alerting\/silence\/new/),
                values: { B: 92.4213, C: 1 },
              }),
            },
            // Grafana's rendered message, since the description came from the annotations.
            { type: 'string', label: 'message', value: expect.stringMatching(/^\*\*Firing\*\*/) },
          ],
        },
      },
    ]);
  });

  it('resolves the group when the unified notification is resolved', () => {
    expect(adapt(request(fixture('grafana/unified-resolved.json')))).toEqual([{ action: 'resolve', thirdpartyId: UNIFIED_GROUP_KEY }]);
  });

  it("falls back to Grafana's title and message when the group has no common alertname or annotations", () => {
    const [action] = adapt(request(fixture('grafana/unified-docs-example.json'), { urgency: 'high' }));

    expect(action).toMatchObject({
      action: 'create',
      thirdpartyId: '{}:{}',
      alert: { title: '[FIRING:2]  (blue)', urgency: 'high' },
    });
    expect(action.action === 'create' && action.alert.description).toMatch(/^\*\*Firing\*\*/);
  });

  it('maps the common severity label like Alertmanager does', () => {
    const payload = fixtureJson('grafana/unified-firing.json');
    (payload.commonLabels as Record<string, unknown>).severity = 'critical';
    expect(adapt(request(payload))[0]).toMatchObject({ alert: { urgency: 'critical' } });
  });

  it('creates an alert from a legacy alerting notification, named by its ruleId', () => {
    expect(adapt(request(fixture('grafana/legacy-alerting.json')))).toEqual([
      {
        action: 'create',
        thirdpartyId: '1',
        alert: {
          title: 'Panel Title alert',
          description: 'Notification Message',
          urgency: 'medium',
          additionalData: [
            { type: 'number', label: 'dashboardId', value: 1 },
            { type: 'json', label: 'evalMatches', value: [{ value: 1, metric: 'Count', tags: {} }] },
            { type: 'image', label: 'imageUrl', value: 'https://grafana.com/static/assets/img/blog/mixed_styles.png' },
            { type: 'number', label: 'orgId', value: 1 },
            { type: 'number', label: 'panelId', value: 2 },
            {
              type: 'link',
              label: 'ruleUrl',
              value: 'http://localhost:3000/d/hZ7BuVbWz/test-dashboard?fullscreen&edit&tab=alert&panelId=2&orgId=1',
            },
            { type: 'json', label: 'tags', value: { 'tag name': 'tag value' } },
          ],
        },
      },
    ]);
  });

  it('resolves on a legacy ok notification', () => {
    expect(adapt(request(fixture('grafana/legacy-ok.json')))).toEqual([{ action: 'resolve', thirdpartyId: '1' }]);
  });

  it('ignores legacy no_data, pending and paused states', () => {
    expect(adapt(request(fixture('grafana/legacy-no-data.json')))).toEqual([
      { action: 'ignore', reason: 'Grafana state is neither alerting nor ok', details: { state: 'no_data' } },
    ]);
  });

  it('rejects a payload that names no rule and no group', () => {
    expect(() => adapt(request({ state: 'alerting', title: 'x' }))).toThrowError(/ruleId and groupKey are missing/);
  });
});
