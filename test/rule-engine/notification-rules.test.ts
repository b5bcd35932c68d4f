import { beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_NOTIFICATION_TEMPLATE,
  explainNotificationRule,
  parseNotificationRules,
  pickChannels,
  unrollSchedule,
} from '../../lib/rule-engine';
import { NOON_UTC, notificationFaults, parsedNotificationRules } from './support';
import { loadEveryPackageOnFirstUse } from '../../lib/on-first-use';

// The engines are called directly here: the packages they load on first use are loaded beforehand.
beforeAll(loadEveryPackageOnFirstUse);

const RULES = `---
rules:
  - match:
      alert.urgency: low
    actions:
      - type: ignore
  - match:
      alert.urgency:
        $in: [high, critical]
    actions:
      - type: notify
        channels: [push, sms]
        timeout: 1m
      - type: notify
        channels: [voice]
        timeout: 2m
      - type: repeat
        times: 2
  - match:
      always: true
    types: [alert.handoff]
    actions:
      - type: notify
        channels: [email]
`;

const user = { notify_push: true, notify_email: true, notify_sms: false, notify_voice: false };
const rule = (enabled = true) => ({ id: 'nrl_TEST', enabled, rules: parsedNotificationRules(RULES) });

describe('notification rules pick channels and timing', () => {
  it('a notify sequence with repeat becomes a schedule of steps', () => {
    const plan = pickChannels(rule(), user, { alert: { urgency: 'critical' } }, 'alert.open', NOON_UTC);

    expect(plan).toMatchObject({ source: 'rule', reason: 'matched', rule_index: 1, notification_rule_id: 'nrl_TEST', type: 'alert.open' });
    expect(plan.steps).toEqual([
      { at_offset_ms: 0, channels: ['push', 'sms'] },
      { at_offset_ms: 60_000, channels: ['voice'] },
      { at_offset_ms: 180_000, channels: ['push', 'sms'] },
      { at_offset_ms: 240_000, channels: ['voice'] },
      { at_offset_ms: 360_000, channels: ['push', 'sms'] },
      { at_offset_ms: 420_000, channels: ['voice'] },
    ]);
    expect(plan.ends_at_offset_ms).toBe(540_000);
  });

  it('ignore sends nothing', () => {
    expect(pickChannels(rule(), user, { alert: { urgency: 'low' } })).toMatchObject({ source: 'rule', reason: 'ignored', steps: [] });
  });

  it('no matching rule → the user default channels, at once', () => {
    const plan = pickChannels(rule(), user, { alert: { urgency: 'medium' } });

    expect(plan).toMatchObject({ source: 'default', reason: 'no_match', steps: [{ at_offset_ms: 0, channels: ['push', 'email'] }] });
  });

  it('a disabled rule, or none, → the default channels', () => {
    expect(pickChannels(rule(false), user, { alert: { urgency: 'critical' } })).toMatchObject({ source: 'default', reason: 'disabled' });
    expect(pickChannels(null, { notify_sms: true, notify_voice: true }, { alert: {} })).toMatchObject({
      source: 'default',
      reason: 'no_rule',
      steps: [{ at_offset_ms: 0, channels: ['sms', 'voice'] }],
    });
    expect(pickChannels(null, {}, { alert: {} }).steps).toEqual([]);
  });

  it('types: a rule applies only to its events; alert.open by default', () => {
    expect(pickChannels(rule(), user, { alert: { urgency: 'medium' } }, 'alert.handoff')).toMatchObject({
      source: 'rule',
      rule_index: 2,
      steps: [{ at_offset_ms: 0, channels: ['email'] }],
    });
    // The high-urgency rule is for alert.open only.
    expect(pickChannels(rule(), user, { alert: { urgency: 'high' } }, 'alert.handoff').rule_index).toBe(2);
    expect(parsedNotificationRules(RULES).rules[1].types).toEqual(['alert.open']);
  });

  it('takes the stored YAML text too', () => {
    expect(pickChannels({ enabled: true, rules: RULES }, user, { alert: { urgency: 'high' } }).rule_index).toBe(1);
    expect(pickChannels({ enabled: true, rules: 'rules: [' }, user, { alert: {} })).toMatchObject({
      source: 'default',
      reason: 'invalid_rules',
    });
  });

  it('match conditions may use the time operators, at the instant given', () => {
    const text = `rules:
  - match:
      $timeBetween: {timezone: Europe/Paris, starttime: "10:00 pm", endtime: "07:00 am"}
    actions:
      - {type: notify, channels: [voice]}
  - match: {always: true}
    actions:
      - {type: notify, channels: [push]}
`;
    const set = { enabled: true, rules: parsedNotificationRules(text) };

    expect(pickChannels(set, user, { alert: {} }, 'alert.open', Date.UTC(2024, 5, 3, 1)).steps[0].channels).toEqual(['voice']);
    expect(pickChannels(set, user, { alert: {} }, 'alert.open', Date.UTC(2024, 5, 3, 12)).steps[0].channels).toEqual(['push']);
  });

  it('unrolls repeats of everything above; steps at the same moment merge', () => {
    expect(
      unrollSchedule([
        { type: 'notify', channels: ['push'], timeout_ms: 0 },
        { type: 'notify', channels: ['sms'], timeout_ms: 0 },
        { type: 'repeat', times: 3 },
      ]),
    ).toEqual({
      steps: [{ at_offset_ms: 0, channels: ['push', 'sms'] }],
      end: 0,
      tooLong: false,
    });
    expect(
      unrollSchedule([
        { type: 'notify', channels: ['push'], timeout_ms: 1000 },
        { type: 'repeat', times: 1 },
        { type: 'notify', channels: ['voice'], timeout_ms: 5000 },
      ]).steps,
    ).toEqual([
      { at_offset_ms: 0, channels: ['push'] },
      { at_offset_ms: 1000, channels: ['push'] },
      { at_offset_ms: 2000, channels: ['voice'] },
    ]);
  });

  it('explains: rules skipped for their type, the first failed condition, the matched conditions', () => {
    const explanation = explainNotificationRule(rule(), user, { alert: { urgency: 'high' } }, 'alert.open', NOON_UTC);

    expect(explanation.tried).toEqual([
      { index: 0, failed_condition: { condition: 'alert.urgency', expected: 'low', held: false, saw: 'high' } },
    ]);
    expect(explanation.matched_rule).toEqual({
      index: 1,
      conditions: [{ condition: 'alert.urgency', expected: { $in: ['high', 'critical'] }, held: true, saw: 'high' }],
    });
    const handoff = explainNotificationRule(rule(), user, { alert: { urgency: 'high' } }, 'alert.handoff', NOON_UTC);
    expect(handoff.tried).toEqual([
      { index: 0, skipped_for_type: ['alert.open'], failed_condition: null },
      { index: 1, skipped_for_type: ['alert.open'], failed_condition: null },
    ]);
    expect(handoff.plan.rule_index).toBe(2);
  });

  it('the default template parses and picks channels', () => {
    const set = { enabled: true, rules: parsedNotificationRules(DEFAULT_NOTIFICATION_TEMPLATE) };

    expect(pickChannels(set, user, { alert: { urgency: 'low' } }).steps).toEqual([{ at_offset_ms: 0, channels: ['push', 'email'] }]);
  });
});

describe('notification rule YAML validation', () => {
  const one = (actions: unknown) => `rules:\n  - match: {always: true}\n    actions: ${JSON.stringify(actions)}\n`;

  it('names unknown actions and channels, bad timeouts and repeat counts', () => {
    expect(notificationFaults(one([{ type: 'assign', receiver: 'tem_A' }]))[0]).toMatch(
      /^rules\[0\]\.actions\[0\]\.type is not a known action: assign \(known actions: notify, repeat, ignore\)/,
    );
    expect(notificationFaults(one([{ type: 'notify', channels: ['pager'] }]))[0]).toMatch(
      /channels\[0\] is not a channel \(push, email, sms, voice, slack, whatsapp\): "pager"/,
    );
    expect(notificationFaults(one([{ type: 'notify' }]))[0]).toMatch(/channels must be a list of channels/);
    expect(notificationFaults(one([{ type: 'notify', channels: ['push'], timeout: 'later' }]))[0]).toMatch(/timeout is not a duration/);
    expect(
      notificationFaults(
        one([
          { type: 'notify', channels: ['push'] },
          { type: 'repeat', times: 4 },
        ]),
      )[0],
    ).toMatch(/times must be a whole number from 0 to 3, not 4/);
    expect(notificationFaults(one([{ type: 'repeat', times: 1 }]))[0]).toMatch(/must hold a notify \(or an ignore\)/);
  });

  it('types must be event names', () => {
    const text = 'rules:\n  - match: {always: true}\n    types: [open]\n    actions: [{type: ignore}]\n';

    expect(notificationFaults(text)[0]).toMatch(/^rules\[0\]\.types\[0\] is not an event type \(for example alert\.open\): "open"/);
    const warned = parseNotificationRules('rules:\n  - match: {always: true}\n    types: alert.custom\n    actions: [{type: ignore}]\n');
    expect(warned.ok && warned.warnings[0]).toMatch(/is not an event this service notifies about yet: alert.custom/);
  });

  it('bounds the unrolled schedule', () => {
    const actions = [{ type: 'notify', channels: ['push'], timeout: '1m' }, ...Array(4).fill({ type: 'repeat', times: 3 })];

    expect(notificationFaults(one(actions))[0]).toMatch(/unroll to more than 64 notification steps/);
  });

  it('accepts channel_options and channel names in any case', () => {
    const set = parsedNotificationRules(
      one([{ type: 'notify', channels: ['Push', 'SMS'], timeout: 5, channel_options: { sms: 'secondary' } }]),
    );

    expect(set.rules[0].actions[0]).toEqual({
      type: 'notify',
      channels: ['push', 'sms'],
      timeout_ms: 300_000,
      channel_options: { sms: 'secondary' },
    });
  });
});
