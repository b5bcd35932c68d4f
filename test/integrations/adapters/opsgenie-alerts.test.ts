import { describe, expect, it } from 'vitest';
import { ulidTime } from '../../../lib/ids';
import { adaptPayload, UnreadablePayload, type AdapterInput } from '../../../lib/integrations/adapters';
import { checkOpsgenieActionBody, checkOpsgenieCreate, checkOpsgenieTarget } from '../../../lib/integrations/adapters/opsgenie-alert-rules';
import { requestIdOf, ulidOfRequestId } from '../../../lib/integrations/opsgenie-alert-api';
import { fixture, fixtureJson, LOG_ID, request } from './support';

/** The request as the drop-in stored it: its route beside the body. */
const routed = (body: string | object, path: string, query = ''): AdapterInput => ({ ...request(body), route: { path, query } });
const adapt = (input: AdapterInput) => adaptPayload('opsgenie', input);

describe("Opsgenie's create checks", () => {
  it("accept the documented create and Grafana's", () => {
    expect(checkOpsgenieCreate(fixtureJson('opsgenie/create.json'))).toEqual({});
    expect(checkOpsgenieCreate(fixtureJson('opsgenie/grafana-create.json'))).toEqual({});
  });

  it('count the message in code points, as Alertmanager and Grafana cut it at 130 runes', () => {
    // 130 emoji are 260 UTF-16 units and 130 runes: what a sender that cut at 130 runes sends.
    expect(checkOpsgenieCreate({ message: '🔥'.repeat(130) })).toEqual({});
    expect(checkOpsgenieCreate({ message: '🔥'.repeat(131) })).toEqual({ message: 'message can be at most 130 characters (it has 131)' });
  });

  it('name every fault at once, by its field', () => {
    expect(
      checkOpsgenieCreate({
        priority: 'p9',
        tags: ['ok', 3],
        actions: 'Restart',
        details: 'x',
        entity: 5,
        responders: [{ type: 'team' }, 'x'],
        visibleTo: {},
      }),
    ).toEqual({
      message: 'message is required and can not be blank',
      priority: 'priority must be one of P1, P2, P3, P4, P5',
      'tags[1]': 'tags[1] must be a string',
      actions: 'actions must be an array of strings',
      details: 'details must be an object of key-value pairs',
      entity: 'entity must be a string',
      'responders[0]': 'responders[0] must name its id, name or username',
      'responders[1]': 'responders[1] must be an object',
      visibleTo: 'visibleTo must be an array of {type, id | name | username}',
    });
    // Opsgenie's own spelling and a lower-case one are both P-levels; null is absent.
    expect(checkOpsgenieCreate({ message: 'm', priority: 'p2', tags: null, details: null, alias: null })).toEqual({});
  });

  it('read identifierType as id by default and check what a tiny id and an alias may be', () => {
    expect(checkOpsgenieTarget('alt_01KJRDWZ0000000000000000AB', null)).toEqual({
      target: { identifier: 'alt_01KJRDWZ0000000000000000AB', identifierType: 'id' },
      faults: {},
    });
    expect(checkOpsgenieTarget('42', 'Tiny').target).toEqual({ identifier: '42', identifierType: 'tiny' });
    expect(checkOpsgenieTarget('4.2', 'tiny').faults).toEqual({ identifier: 'A tiny id is a whole number (1, 2, …)' });
    expect(checkOpsgenieTarget('a'.repeat(513), 'alias').faults).toEqual({ identifier: 'An alias can be at most 512 characters' });
    expect(checkOpsgenieTarget('x', 'name').faults).toEqual({ identifierType: 'identifierType must be one of id, alias, tiny' });
  });

  it('take close and acknowledge without a body, and need a message to update one', () => {
    expect(checkOpsgenieActionBody('close', undefined)).toEqual({});
    expect(checkOpsgenieActionBody('acknowledge', { user: 'Monitoring Script', note: 'seen', source: 'Nagios' })).toEqual({});
    expect(checkOpsgenieActionBody('close', [])).toEqual({ body: 'The request body must be a JSON object' });
    expect(checkOpsgenieActionBody('message', {})).toEqual({ message: 'message is required and can not be blank' });
    // Alertmanager leaves an empty description out (omitempty): `{}` is its update.
    expect(checkOpsgenieActionBody('description', {})).toEqual({});
  });
});

describe('the opsgenie adapter', () => {
  it('makes a create of the documented request, named by its alias', () => {
    const [action] = adapt(routed(fixture('opsgenie/create.json'), '/v2/alerts'));
    expect(action).toMatchObject({
      action: 'create',
      thirdpartyId: 'disk-usage-db-3',
      alert: {
        title: 'Disk usage above 90% on db-3',
        description: 'The data volume of db-3 is 91% full and grows about 2% a day.',
        urgency: 'critical',
        tags: ['OverwriteQuietHours', 'Critical'],
      },
    });
  });

  it('names a create without alias by its stored request, and gives it the integration’s urgency without priority', () => {
    expect(adapt(routed({ message: 'no alias' }, '/v2/alerts'))).toEqual([
      { action: 'create', thirdpartyId: LOG_ID, alert: { title: 'no alias', urgency: 'medium' } },
    ]);
  });

  it('reads close and acknowledge from the route: alias as the sender id, id and tiny id as the alert', () => {
    expect(adapt(routed('{"source":"Grafana"}', '/v2/alerts/abc%2Fdef/close', 'identifierType=alias'))).toEqual([
      { action: 'resolve', thirdpartyId: 'abc/def' },
    ]);
    expect(adapt(routed('', '/v2/alerts/alt_01KJRDWZ0000000000000000AB/acknowledge', ''))).toEqual([
      { action: 'acknowledge', alertRef: { by: 'id', id: 'alt_01KJRDWZ0000000000000000AB' } },
    ]);
    expect(adapt(routed({}, '/v2/alerts/17/close', 'identifierType=tiny'))).toEqual([
      { action: 'resolve', alertRef: { by: 'tiny', tinyId: 17 } },
    ]);
  });

  it('accepts the message and description updates without applying them', () => {
    expect(adapt(routed({ message: 'new' }, '/v2/alerts/abc/message', 'identifierType=alias'))).toEqual([
      { action: 'ignore', reason: "Opsgenie message update accepted and not applied (the alert keeps its create's message)" },
    ]);
  });

  it('refuses a stored route it does not know', () => {
    expect(() => adapt(routed({}, '/v2/alerts/abc/snooze'))).toThrow(UnreadablePayload);
    expect(() => adapt(routed({}, '/v2/alerts/abc/close', 'identifierType=nope'))).toThrow(UnreadablePayload);
  });

  it('reads POST /integration/:id (no route) as a create', () => {
    expect(adapt(request({ message: 'direct', alias: 'a-1', priority: 'P5' }))).toEqual([
      {
        action: 'create',
        thirdpartyId: 'a-1',
        alert: {
          title: 'direct',
          urgency: 'low',
          additionalData: [
            { type: 'string', label: 'priority', value: 'P5' },
            { type: 'string', label: 'alias', value: 'a-1' },
          ],
        },
      },
    ]);
  });
});

describe('the requestId', () => {
  it('is the stored request’s ULID written as a UUID', () => {
    expect(requestIdOf('00000000000000000000000000')).toBe('00000000-0000-0000-0000-000000000000');
    expect(requestIdOf('7ZZZZZZZZZZZZZZZZZZZZZZZZZ')).toBe('ffffffff-ffff-ffff-ffff-ffffffffffff');
    // Its first 48 bits are the ULID's time, as UUIDv7's are.
    const id = 'log_01KJRDX4B8Q3M7Y2C5V9N6T1WZ'.slice(4);
    expect(requestIdOf(id).replace(/-/g, '').slice(0, 12)).toBe(ulidTime(id).toString(16).padStart(12, '0'));
    expect(requestIdOf(id)).toBe('019cb0de-9168-b8e8-7f09-85da6a6d079f');
  });

  it('reads back as the ULID it spells, and nothing else', () => {
    const id = '01KJRDX4B8Q3M7Y2C5V9N6T1WZ';
    expect(ulidOfRequestId(requestIdOf(id))).toBe(id);
    expect(ulidOfRequestId(requestIdOf(id).toUpperCase())).toBe(id);
    expect(ulidOfRequestId('not-a-uuid')).toBeNull();
  });
});
