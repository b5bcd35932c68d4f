// The one seam that turns (account user, template, alert) into delivery steps (docs/api.md#escalation-and-notifications): the person's
// notification rule when it is enabled and matches, else the default channels at once.
import { beforeAll, describe, expect, it } from 'vitest';
import { deliveryPlanFor, immediateChannels, loadNotificationRules } from '../../lib/escalation/delivery-plan';
import type { AlertRecord } from '../../lib/alerts/records';
import { alertDefaults } from '../../lib/alerts/store';
import { loadEveryPackageOnFirstUse } from '../../lib/on-first-use';

// A rule's text is parsed by packages loaded on first use (the steps load them through
// notificationRuleFor); this file calls the planner directly, so it loads them itself rather than
// relying on another file of the same worker having done it.
beforeAll(() => loadEveryPackageOnFirstUse());

const alert = {
  ...alertDefaults(),
  id: '01ARZ3NDEKTSV4RRFFQ69G5FAV',
  account_id: '01ARZ3NDEKTSV4RRFFQ69G5FAW',
  tiny_id: 7,
  version: 1,
  title: 'Disk full',
  urgency: 'critical',
  status: 'open',
  source_type: 'AccountUser',
  source_id: 'x',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
} as AlertRecord;

const person = (flags: Partial<Record<'notify_push' | 'notify_email' | 'notify_sms' | 'notify_voice', boolean>>) => ({
  user: { notify_push: false, notify_email: false, notify_sms: false, notify_voice: false, ...flags },
});

const RULE = {
  id: 'nrl_TEST',
  enabled: true,
  rules: `---
rules:
  - match:
      alert.urgency: critical
    actions:
      - type: notify
        channels: [sms]
        timeout: 2m
      - type: notify
        channels: [voice]
  - match:
      alert.urgency: low
    actions:
      - type: ignore
  - match:
      always: true
    types: [alert.handoff]
    actions:
      - type: notify
        channels: [push]
`,
};

describe('deliveryPlanFor', () => {
  it('without a rule: the default channels at once (push, email, sms, voice by the notify flags)', () => {
    expect(deliveryPlanFor(person({ notify_push: true, notify_email: true }), 'alert_alert', alert, null, 0)).toEqual([
      { at_offset_ms: 0, channels: ['push', 'email'] },
    ]);
    expect(deliveryPlanFor(person({ notify_sms: true, notify_voice: true }), 'alert_alert', alert, null, 0)).toEqual([
      { at_offset_ms: 0, channels: ['sms', 'voice'] },
    ]);
    expect(deliveryPlanFor(person({}), 'alert_alert', alert, null, 0)).toEqual([]);
  });

  it('with an explicit rule that matches: its steps and offsets (unscaled; the engine divides them by TIME_SCALE)', () => {
    expect(deliveryPlanFor(person({ notify_email: true }), 'alert_alert', alert, RULE, 0)).toEqual([
      { at_offset_ms: 0, channels: ['sms'] },
      { at_offset_ms: 120_000, channels: ['voice'] },
    ]);
    // An ignore sends nothing; a handoff page reads the alert.handoff rules.
    expect(deliveryPlanFor(person({ notify_email: true }), 'alert_alert', { ...alert, urgency: 'low' }, RULE, 0)).toEqual([]);
    expect(deliveryPlanFor(person({ notify_email: true }), 'alert_handoff', { ...alert, urgency: 'low' }, RULE, 0)).toEqual([
      { at_offset_ms: 0, channels: ['push'] },
    ]);
  });

  it('a disabled rule, or one that matches nothing, falls back to the defaults', () => {
    expect(deliveryPlanFor(person({ notify_email: true }), 'alert_alert', alert, { ...RULE, enabled: false }, 0)).toEqual([
      { at_offset_ms: 0, channels: ['email'] },
    ]);
    expect(deliveryPlanFor(person({ notify_email: true }), 'alert_alert', { ...alert, urgency: 'medium' }, RULE, 0)).toEqual([
      { at_offset_ms: 0, channels: ['email'] },
    ]);
  });

  it('one-off notifications take the immediate step only', () => {
    expect(immediateChannels(person({ notify_email: true }), 'alert_alert', alert, RULE, 0)).toEqual(['sms']);
    expect(immediateChannels(person({ notify_email: true, notify_push: true }), 'alert_dropped', alert, null, 0)).toEqual([
      'push',
      'email',
    ]);
  });

  it('a person without a notification rule has none: the default channels path', async () => {
    const withoutRule = { id: 'ACU', account_id: 'ACC', notification_rule_id: null } as never;
    expect(await loadNotificationRules('ACC', [withoutRule])).toEqual(new Map([['ACU', null]]));
  });
});
