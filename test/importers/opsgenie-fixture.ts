// An Opsgenie account in the API v2's shapes (docs.opsgenie.com: User, Contact, Team, Schedule,
// Schedule Rotation, Schedule Override, Escalation and Integration APIs), built to cover what an
// import must carry: rotations of every type (hourly, daily, weekly; lengths above 1), `none`
// slots, a team slot, time-of-day restrictions that wrap midnight, weekday restrictions, a rotation
// that ends in the window and one that ended before it, overrides of the whole schedule and of one
// rotation, escalation rules with every recipient type (schedule, user, team, escalation) and
// notify type, repeats, and integrations of known and unknown types. The proof window starts at
// FROM: its 28 days cross Europe's daylight-saving change (29 March 2026, Berlin and London).
import type { OpsgenieAccount } from './opsgenie-stand-in';

export const FROM = '2026-03-20T00:00:00Z';

const user = (id: string, username: string, fullName: string, role: string, extra: Partial<OpsgenieAccount['users'][number]> = {}) => ({
  id,
  username,
  fullName,
  role: { id: role, name: role },
  contacts: [{ id: `${id}-email`, method: 'email' as const, to: username, enabled: true }],
  ...extra,
});

const ref = (id: string, username: string) => ({ type: 'user' as const, id, username });

export function opsgenieAccount(): OpsgenieAccount {
  return {
    users: [
      user('u-ada', 'ada@example.org', 'Ada Lovelace', 'Owner', {
        timeZone: 'Europe/Berlin',
        contacts: [
          { id: 'c1', method: 'email', to: 'ada@example.org', enabled: true },
          { id: 'c2', method: 'email', to: 'ada.home@example.org', enabled: true },
          { id: 'c3', method: 'sms', to: '49-15112345678', enabled: true },
          { id: 'c4', method: 'voice', to: '49-15112345678', enabled: true },
        ],
      }),
      user('u-grace', 'grace@example.org', 'Grace Hopper', 'Admin', {
        timeZone: 'America/New_York',
        contacts: [{ id: 'c5', method: 'sms', to: '1-2025550123', enabled: true }],
      }),
      user('u-linus', 'linus@example.org', 'Linus Torvalds', 'User'),
      user('u-margaret', 'margaret@example.org', 'Margaret Hamilton', 'User'),
      user('u-ken', 'ken@example.org', 'Ken Thompson', 'User', { timeZone: 'Europe/London' }),
      user('u-barbara', 'barbara@example.org', 'Barbara Liskov', 'Stakeholder'),
      user('u-dennis', 'dennis@example.org', 'Dennis Ritchie', 'User'),
    ],
    teams: [
      {
        id: 't-platform',
        name: 'Platform',
        description: 'Runs the platform',
        members: [
          { user: ref('u-ada', 'ada@example.org'), role: 'admin' },
          { user: ref('u-grace', 'grace@example.org'), role: 'user' },
          { user: ref('u-linus', 'linus@example.org'), role: 'user' },
          { user: ref('u-margaret', 'margaret@example.org'), role: 'user' },
        ],
      },
      {
        id: 't-db',
        name: 'Database',
        members: [
          { user: ref('u-ken', 'ken@example.org'), role: 'admin' },
          { user: ref('u-dennis', 'dennis@example.org'), role: 'user' },
        ],
      },
      { id: 't-observers', name: 'Observers', members: [{ user: ref('u-barbara', 'barbara@example.org'), role: 'user' }] },
    ],
    schedules: [
      {
        id: 's-primary',
        name: 'Platform primary',
        timezone: 'Europe/Berlin',
        enabled: true,
        ownerTeam: { id: 't-platform', name: 'Platform' },
        rotations: [
          {
            id: 'r-weekly',
            name: 'Weekly',
            startDate: '2026-03-02T08:00:00Z',
            type: 'weekly',
            length: 1,
            participants: [ref('u-ada', 'ada@example.org'), ref('u-grace', 'grace@example.org'), ref('u-linus', 'linus@example.org')],
          },
          {
            id: 'r-nights',
            name: 'Nights',
            startDate: '2026-03-01T17:00:00Z',
            type: 'daily',
            length: 1,
            participants: [ref('u-margaret', 'margaret@example.org'), { type: 'none' }, ref('u-linus', 'linus@example.org')],
            timeRestriction: { type: 'time-of-day', restriction: { startHour: 18, startMin: 0, endHour: 8, endMin: 0 } },
          },
        ],
      },
      {
        id: 's-db',
        name: 'Database',
        timezone: 'Europe/London',
        enabled: true,
        ownerTeam: { id: 't-db', name: 'Database' },
        rotations: [
          {
            id: 'r-business',
            name: 'Business hours, two weeks each',
            startDate: '2026-01-05T09:00:00Z',
            type: 'weekly',
            length: 2,
            participants: [ref('u-ken', 'ken@example.org'), ref('u-dennis', 'dennis@example.org')],
            timeRestriction: {
              type: 'weekday-and-time-of-day',
              restrictions: [{ startDay: 'monday', startHour: 9, startMin: 0, endDay: 'friday', endHour: 17, endMin: 0 }],
            },
          },
          {
            id: 'r-hourly',
            name: 'Six hours',
            startDate: '2026-03-01T00:00:00Z',
            type: 'hourly',
            length: 6,
            participants: [ref('u-dennis', 'dennis@example.org'), ref('u-ken', 'ken@example.org')],
          },
          {
            id: 'r-weekend',
            name: 'Weekend days, until April',
            startDate: '2026-03-10T08:00:00Z',
            endDate: '2026-04-05T07:00:00Z',
            type: 'daily',
            length: 2,
            participants: [ref('u-ken', 'ken@example.org'), ref('u-dennis', 'dennis@example.org'), ref('u-ada', 'ada@example.org')],
            timeRestriction: {
              type: 'weekday-and-time-of-day',
              restrictions: [
                { startDay: 'saturday', startHour: 10, startMin: 0, endDay: 'saturday', endHour: 16, endMin: 0 },
                { startDay: 'sunday', startHour: 10, startMin: 0, endDay: 'sunday', endHour: 16, endMin: 0 },
              ],
            },
          },
          {
            id: 'r-team',
            name: 'With a team',
            startDate: '2026-03-02T09:00:00Z',
            type: 'weekly',
            length: 1,
            participants: [{ type: 'team', id: 't-platform', name: 'Platform' }, ref('u-dennis', 'dennis@example.org')],
          },
        ],
      },
      {
        id: 's-sun',
        name: 'Follow the sun',
        timezone: 'UTC',
        enabled: false,
        rotations: [
          {
            id: 'r-eight',
            name: 'Eight hours',
            startDate: '2026-03-01T00:00:00Z',
            type: 'hourly',
            length: 8,
            participants: [ref('u-grace', 'grace@example.org'), ref('u-ken', 'ken@example.org'), ref('u-ada', 'ada@example.org')],
          },
          {
            id: 'r-late',
            name: 'Late four hours',
            startDate: '2026-03-01T00:00:00Z',
            type: 'hourly',
            length: 4,
            participants: [ref('u-linus', 'linus@example.org'), ref('u-margaret', 'margaret@example.org')],
            timeRestriction: { type: 'time-of-day', restriction: { startHour: 22, startMin: 0, endHour: 6, endMin: 0 } },
          },
          {
            id: 'r-old',
            name: 'Ended in February',
            startDate: '2026-01-01T00:00:00Z',
            endDate: '2026-02-01T00:00:00Z',
            type: 'daily',
            length: 1,
            participants: [ref('u-dennis', 'dennis@example.org')],
          },
        ],
      },
    ],
    overrides: {
      's-primary': [
        {
          alias: 'ov-whole',
          user: ref('u-grace', 'grace@example.org'),
          startDate: '2026-03-25T12:00:00Z',
          endDate: '2026-03-26T12:00:00Z',
        },
        {
          alias: 'ov-weekly',
          user: ref('u-margaret', 'margaret@example.org'),
          startDate: '2026-04-02T10:00:00Z',
          endDate: '2026-04-02T14:00:00Z',
          rotations: [{ id: 'r-weekly', name: 'Weekly' }],
        },
      ],
      's-db': [
        {
          alias: 'ov-dst',
          user: ref('u-ada', 'ada@example.org'),
          startDate: '2026-03-28T20:00:00Z',
          endDate: '2026-03-29T10:00:00Z',
          rotations: [{ id: 'r-hourly', name: 'Six hours' }],
        },
      ],
    },
    escalations: [
      {
        id: 'e-platform',
        name: 'Platform_escalation',
        ownerTeam: { id: 't-platform', name: 'Platform' },
        rules: [
          {
            condition: 'if-not-acked',
            notifyType: 'default',
            delay: { timeAmount: 0 },
            recipient: { type: 'schedule', id: 's-primary', name: 'Platform primary' },
          },
          {
            condition: 'if-not-acked',
            notifyType: 'default',
            delay: { timeAmount: 5 },
            recipient: { type: 'user', id: 'u-grace', username: 'grace@example.org' },
          },
          {
            condition: 'if-not-acked',
            notifyType: 'users',
            delay: { timeAmount: 15 },
            recipient: { type: 'team', id: 't-db', name: 'Database' },
          },
          {
            condition: 'if-not-acked',
            notifyType: 'next',
            delay: { timeAmount: 30 },
            recipient: { type: 'schedule', id: 's-db', name: 'Database' },
          },
        ],
        repeat: { waitInterval: 10, count: 2, resetRecipientStates: false, closeAlertAfterAll: false },
      },
      {
        id: 'e-db',
        name: 'Database_escalation',
        ownerTeam: { id: 't-db', name: 'Database' },
        rules: [
          {
            condition: 'if-not-acked',
            notifyType: 'default',
            delay: { timeAmount: 0 },
            recipient: { type: 'schedule', id: 's-db', name: 'Database' },
          },
          {
            condition: 'if-not-closed',
            notifyType: 'default',
            delay: { timeAmount: 10 },
            recipient: { type: 'team', id: 't-platform', name: 'Platform' },
          },
        ],
      },
      {
        id: 'e-nested',
        name: 'Nested',
        rules: [
          {
            condition: 'if-not-acked',
            notifyType: 'default',
            delay: { timeAmount: 0 },
            recipient: { type: 'user', id: 'u-ken', username: 'ken@example.org' },
          },
          {
            condition: 'if-not-acked',
            notifyType: 'default',
            delay: { timeAmount: 20 },
            recipient: { type: 'escalation', id: 'e-platform', name: 'Platform_escalation' },
          },
        ],
      },
    ],
    integrations: [
      {
        id: 'i-prom',
        name: 'Prometheus prod',
        type: 'Prometheus',
        enabled: true,
        teamId: 't-platform',
        apiKey: 'b1c2d3e4-0000-4000-8000-00000000a1b2',
      },
      { id: 'i-api', name: 'Default API', type: 'API', enabled: true, teamId: 't-db', apiKey: 'b1c2d3e4-0000-4000-8000-00000000c3d4' },
      { id: 'i-email', name: 'Email in', type: 'Email', enabled: true, emailAddress: 'ops@example.app.opsgenie.com' },
    ],
  };
}

/** The account with one schedule whose on-call cannot be carried exactly: hourly turns count elapsed
 * hours at the source, and with restrictions they are imported on the wall clock, so across a change
 * of clocks (or after enough turns) the two renderings part. */
export function driftingOpsgenieAccount(): OpsgenieAccount {
  const account = opsgenieAccount();
  account.schedules = [
    {
      id: 's-drift',
      name: 'Drifting',
      timezone: 'Europe/Berlin',
      enabled: true,
      rotations: [
        {
          id: 'r-drift',
          name: 'Five hours, days only',
          startDate: '2026-03-01T00:00:00Z',
          type: 'hourly',
          length: 5,
          participants: [ref('u-ada', 'ada@example.org'), ref('u-ken', 'ken@example.org')],
          timeRestriction: { type: 'time-of-day', restriction: { startHour: 8, startMin: 0, endHour: 20, endMin: 0 } },
        },
      ],
    },
  ];
  return account;
}
