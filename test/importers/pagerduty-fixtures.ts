// A PagerDuty account as its REST API v2 describes one, for the stand-in: the proof window
// (28 days from NOW) crosses Europe/Berlin's change to winter time (2026-10-25) and New York's
// (2026-11-01). Rotations of every length PagerDuty offers (weekly, daily, 12-hour, multi-day),
// daily and weekly restrictions (one across the night the clocks change), a layer that starts and
// ends inside the window, overrides (one across the change), escalation rules naming users and
// schedules, services with their integrations, and more objects than a page holds.
import type { PagerDutyAccount } from './pagerduty-stand-in';

export const PD_NOW = Date.parse('2026-10-15T00:00:00Z');

const person = (id: string, name: string, email: string, role: string, time_zone: string, phone?: string) => ({
  id,
  name,
  email,
  time_zone,
  role,
  contact_methods: [
    { id: `${id}E`, type: 'email_contact_method' as const, label: 'Default', address: email },
    ...(phone
      ? [
          { id: `${id}P`, type: 'phone_contact_method' as const, label: 'Mobile', address: phone, country_code: 49 },
          { id: `${id}S`, type: 'sms_contact_method' as const, label: 'Mobile', address: phone, country_code: 49 },
        ]
      : []),
  ],
});

export function pagerDutyAccount(): PagerDutyAccount {
  return {
    users: [
      {
        ...person('PALICE1', 'Alice Adler', 'alice@pd.example', 'admin', 'Europe/Berlin', '15112345671'),
        contact_methods: [
          { id: 'PALICEE', type: 'email_contact_method', label: 'Default', address: 'alice@pd.example' },
          { id: 'PALICEW', type: 'email_contact_method', label: 'Work', address: 'alice.adler@work.example' },
          { id: 'PALICEP', type: 'phone_contact_method', label: 'Mobile', address: '15112345671', country_code: 49 },
          { id: 'PALICEX', type: 'push_notification_contact_method', label: 'iPhone', address: 'device-token' },
        ],
      },
      person('PBOB002', 'Bob Brandt', 'bob@pd.example', 'user', 'Europe/Berlin', '15112345672'),
      person('PCAROL3', 'Carol Clark', 'carol@pd.example', 'limited_user', 'Europe/London'),
      person('PDAN004', 'Dan Dorsey', 'dan@pd.example', 'owner', 'America/New_York', '15112345674'),
      person('PERIN05', 'Erin Evans', 'erin@pd.example', 'user', 'America/New_York'),
      person('PFRANK6', 'Frank Fox', 'frank@pd.example', 'observer', 'America/Chicago'),
      person('PGRACE7', 'Grace Green', 'grace@pd.example', 'user', 'Asia/Tokyo'),
    ],
    teams: [
      {
        id: 'PTPLAT1',
        name: 'Platform',
        description: 'Runs the platform',
        members: [
          { userId: 'PALICE1', role: 'manager' },
          { userId: 'PBOB002', role: 'responder' },
          { userId: 'PCAROL3', role: 'responder' },
          { userId: 'PFRANK6', role: 'observer' },
        ],
      },
      {
        id: 'PTPAY02',
        name: 'Payments',
        description: null,
        members: [
          { userId: 'PDAN004', role: 'manager' },
          { userId: 'PERIN05', role: 'responder' },
          { userId: 'PGRACE7', role: 'responder' },
        ],
      },
    ],
    schedules: [
      {
        id: 'PSPLAT1',
        name: 'Platform primary',
        description: 'Weekly primary, weekend and lunch cover',
        time_zone: 'Europe/Berlin',
        teamIds: ['PTPLAT1'],
        layers: [
          {
            id: 'PLWEEK1',
            name: 'Layer 1',
            start: '2026-09-01T00:00:00+02:00',
            end: null,
            rotation_virtual_start: '2026-09-28T09:00:00+02:00',
            rotation_turn_length_seconds: 7 * 86_400,
            userIds: ['PALICE1', 'PBOB002', 'PCAROL3'],
            restrictions: [],
          },
          {
            id: 'PLWKND2',
            name: 'Layer 2',
            start: '2026-09-01T00:00:00+02:00',
            end: null,
            rotation_virtual_start: '2026-10-01T18:00:00+02:00',
            rotation_turn_length_seconds: 86_400,
            userIds: ['PBOB002', 'PCAROL3'],
            // Friday 18:00 for 62 hours: across the night Berlin's clocks go back (2026-10-25).
            restrictions: [
              { type: 'weekly_restriction', start_time_of_day: '18:00:00', duration_seconds: 62 * 3600, start_day_of_week: 5 },
            ],
          },
          {
            id: 'PLLUNC3',
            name: 'Layer 3',
            start: '2026-10-20T00:00:00+02:00',
            end: '2026-11-05T00:00:00+01:00',
            rotation_virtual_start: '2026-10-10T00:00:00+02:00',
            rotation_turn_length_seconds: 2 * 86_400,
            userIds: ['PGRACE7', 'PALICE1'],
            restrictions: [{ type: 'daily_restriction', start_time_of_day: '12:00:00', duration_seconds: 3600 }],
          },
        ],
        overrides: [
          { id: 'PO1DST1', start: '2026-10-24T20:00:00+02:00', end: '2026-10-25T08:00:00+01:00', userId: 'PDAN004' },
          { id: 'PO2NOV3', start: '2026-11-03T10:00:00Z', end: '2026-11-03T14:00:00Z', userId: 'PERIN05' },
        ],
      },
      {
        id: 'PSPAY02',
        name: 'Payments follow the sun',
        description: null,
        time_zone: 'America/New_York',
        teamIds: ['PTPAY02'],
        layers: [
          {
            id: 'PLHALF1',
            name: 'Layer 1',
            start: '2026-10-01T00:00:00-04:00',
            end: null,
            rotation_virtual_start: '2026-10-01T08:00:00-04:00',
            rotation_turn_length_seconds: 12 * 3600,
            userIds: ['PDAN004', 'PERIN05', 'PGRACE7'],
            restrictions: [],
          },
          {
            id: 'PLDAYS2',
            name: 'Layer 2',
            start: '2026-10-20T00:00:00-04:00',
            end: null,
            rotation_virtual_start: '2026-10-19T09:00:00-04:00',
            rotation_turn_length_seconds: 7 * 86_400,
            userIds: ['PERIN05'],
            // 09:00–17:00 New York time on either side of 2026-11-01.
            restrictions: [{ type: 'daily_restriction', start_time_of_day: '09:00:00', duration_seconds: 8 * 3600 }],
          },
        ],
        overrides: [],
      },
      {
        id: 'PSEMPT3',
        name: 'Unstaffed',
        description: null,
        time_zone: 'UTC',
        teamIds: [],
        layers: [],
        overrides: [],
      },
    ],
    escalationPolicies: [
      {
        id: 'PEPLAT1',
        name: 'Platform',
        description: 'Primary, then the manager and payments',
        num_loops: 2,
        teamIds: ['PTPLAT1'],
        rules: [
          { id: 'PR1', escalation_delay_in_minutes: 10, targets: [{ type: 'schedule_reference', id: 'PSPLAT1' }] },
          {
            id: 'PR2',
            escalation_delay_in_minutes: 15,
            targets: [
              { type: 'user_reference', id: 'PALICE1' },
              { type: 'schedule_reference', id: 'PSPAY02' },
            ],
          },
        ],
      },
      {
        id: 'PEPAY02',
        name: 'Payments',
        description: null,
        num_loops: 0,
        teamIds: ['PTPAY02'],
        rules: [
          { id: 'PR3', escalation_delay_in_minutes: 5, targets: [{ type: 'schedule_reference', id: 'PSPAY02' }] },
          { id: 'PR4', escalation_delay_in_minutes: 30, targets: [{ type: 'user_reference', id: 'PDAN004' }] },
        ],
      },
    ],
    services: [
      {
        id: 'PSVAPI1',
        name: 'Public API',
        status: 'active',
        escalationPolicyId: 'PEPLAT1',
        teamIds: ['PTPLAT1'],
        integrations: [
          {
            id: 'PIEV2A1',
            type: 'events_api_v2_inbound_integration',
            name: 'Events API v2',
            integration_key: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
          },
          { id: 'PIMAIL2', type: 'generic_email_inbound_integration', name: 'E-mail', integration_email: 'public-api@acme.pagerduty.com' },
        ],
      },
      {
        id: 'PSVBIL2',
        name: 'Billing',
        status: 'disabled',
        escalationPolicyId: 'PEPAY02',
        teamIds: ['PTPAY02'],
        integrations: [
          {
            id: 'PIPROM3',
            type: 'events_api_v2_inbound_integration',
            name: 'Prometheus',
            integration_key: '0f1e2d3c4b5a69788796a5b4c3d2e1f0',
            vendor: 'Prometheus',
          },
        ],
      },
    ],
  };
}
