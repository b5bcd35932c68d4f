// The console's pure parts, without a browser: validation messages to fields, who is on call and
// who is next, the week layout's override bookkeeping, and where a YAML message points.
import { describe, expect, it } from 'vitest';
import { assignErrors, enclosingPaths, leadingFields } from '../../web/src/lib/field-errors';
import { summarizeLayers, type OncallEntry } from '../../web/src/lib/oncall';
import { occurrenceStartOf, removedOccurrences, type ScheduleEvent } from '../../web/src/lib/week';
import { offsetOf, positionIn } from '../../web/src/lib/yaml-position';

describe('validation messages to fields', () => {
  it('reads the field names a message starts with', () => {
    expect(leadingFields("name can't be blank")).toEqual(['name']);
    expect(leadingFields('account_user_ids, router_ids or team_ids must name at least one destination')).toEqual([
      'account_user_ids',
      'router_ids',
      'team_ids',
    ]);
    expect(leadingFields('user_attributes.emails_attributes[1].email is not a valid e-mail address')).toEqual([
      'user_attributes.emails_attributes[1].email',
    ]);
  });

  it('walks up a nested path', () => {
    expect(enclosingPaths('a.b[2].c')).toEqual(['a.b[2].c', 'a.b[2]', 'a.b', 'a']);
  });

  it('puts each message beside its input, the nearest enclosing one, an alias, or on the form', () => {
    const fields = ['name', 'user_attributes.emails_attributes', 'email', 'team_ids'];
    const assigned = assignErrors(
      [
        "name can't be blank",
        'user_attributes.emails_attributes[3].primary must be a boolean',
        'username is required',
        'account_user_ids, router_ids or team_ids must name at least one destination',
        'Cannot reject: you have no open notification workflow',
      ],
      fields,
      { username: 'email' },
    );
    expect(assigned.byField).toEqual({
      name: ["name can't be blank"],
      'user_attributes.emails_attributes': ['user_attributes.emails_attributes[3].primary must be a boolean'],
      email: ['username is required'],
      team_ids: ['account_user_ids, router_ids or team_ids must name at least one destination'],
    });
    expect(assigned.general).toEqual(['Cannot reject: you have no open notification workflow']);
  });
});

const entry = (event_id: string, layer: number, start: string, end: string, ...people: string[]): OncallEntry => ({
  event_id,
  layer,
  start_time: `2026-11-23T${start}:00.000Z`,
  end_time: `2026-11-23T${end}:00.000Z`,
  attendees: people.map((p, i) => ({ attendee_id: p, attendee_type: 'AccountUser', position: i })),
});
const at = (hhmm: string) => Date.parse(`2026-11-23T${hhmm}:00.000Z`);

describe('who is on call and who is next', () => {
  it('runs "until" to when the people change, not to the end of the entry', () => {
    const window = [entry('e', 1, '08:00', '10:00', 'ann'), entry('e', 1, '10:00', '12:00', 'ann'), entry('e', 1, '12:00', '14:00', 'bob')];
    const [layer] = summarizeLayers([window[0]], window, at('09:00'));
    expect(layer).toEqual({ layer: 1, now: ['ann'], until: at('12:00'), next: ['bob'], nextFrom: at('12:00') });
  });

  it('names who comes after a gap, and nobody now when the layer is empty', () => {
    const window = [entry('e', 1, '08:00', '10:00', 'ann'), entry('f', 1, '11:00', '12:00', 'ann'), entry('g', 2, '13:00', '14:00', 'cy')];
    const [one, two] = summarizeLayers([window[0]], window, at('09:00'));
    expect(one).toMatchObject({ now: ['ann'], until: at('10:00'), next: ['ann'], nextFrom: at('11:00') });
    expect(two).toMatchObject({ layer: 2, now: [], until: at('13:00'), next: ['cy'], nextFrom: at('13:00') });
  });

  it('does not take the end of the window for a change of people', () => {
    const window = [entry('e', 1, '08:00', '20:00', 'ann')];
    const [layer] = summarizeLayers(window, window, at('09:00'), at('12:00'));
    expect(layer).toMatchObject({ now: ['ann'], until: null, next: null });
  });

  it('adds the attendees of events on one layer at one time', () => {
    const window = [entry('e', 1, '08:00', '10:00', 'ann'), entry('f', 1, '08:00', '09:30', 'bob')];
    const [layer] = summarizeLayers(window, window, at('09:00'));
    expect(layer).toMatchObject({ now: ['ann', 'bob'], until: at('09:30'), next: ['ann'], nextFrom: at('09:30') });
  });
});

const event = (id: string, parent: string | null, exceptions: string[] = []): ScheduleEvent => ({
  id,
  start_datetime: '2026-11-16T09:00:00.000Z',
  end_datetime: '2026-11-17T09:00:00.000Z',
  layer: 1,
  time_zone: 'UTC',
  repeat: parent === null,
  rotation: parent === null,
  parent_id: parent,
  event_attendees: [],
  exceptions: exceptions.map((start, i) => ({ id: `x${i}`, start_datetime: start })),
});

describe('the occurrence an override acts on', () => {
  const events = new Map([
    ['rot', event('rot', null)],
    ['ov', event('ov', 'rot')],
  ]);

  it('is the entry’s own start when no override cut it', () => {
    const pieces = [
      entry('rot', 1, '09:00', '12:00', 'ann'),
      entry('ov', 1, '12:00', '15:00', 'bob'),
      entry('rot', 1, '15:00', '23:00', 'ann'),
    ];
    expect(occurrenceStartOf(pieces[0], pieces, events)).toBe(at('09:00'));
    // The piece after the override belongs to the occurrence that began at 09:00.
    expect(occurrenceStartOf(pieces[2], pieces, events)).toBe(at('09:00'));
  });

  it('is the override’s start when the override covered the occurrence’s beginning', () => {
    const pieces = [entry('ov', 1, '09:00', '12:00', 'bob'), entry('rot', 1, '12:00', '23:00', 'ann')];
    expect(occurrenceStartOf(pieces[1], pieces, events)).toBe(at('09:00'));
  });

  it('lists removed occurrences that fall in the week', () => {
    const removed = removedOccurrences(
      [event('rot', null, ['2026-11-24T09:00:00.000Z', '2026-12-30T09:00:00.000Z'])],
      at('00:00'),
      at('00:00') + 7 * 86_400_000,
    );
    expect(removed.map((r) => new Date(r.start).toISOString())).toEqual(['2026-11-24T09:00:00.000Z']);
    expect(removed[0].end - removed[0].start).toBe(86_400_000);
  });
});

describe('YAML messages', () => {
  const text = 'rules:\n  - match: {always: true}\n    actions:\n      - type: explode\n';

  it('reads the line and column a message names, in either of the API’s forms', () => {
    expect(positionIn('rules is not valid YAML at line 3, column 5: Flow map in block collection must be sufficiently indented')).toEqual({
      line: 3,
      column: 5,
    });
    expect(
      positionIn('rules[0].actions[0].type is not a known action: explode (known actions: assign, ignore) (line 4, column 15)'),
    ).toEqual({
      line: 4,
      column: 15,
    });
    expect(positionIn("name can't be blank")).toBeNull();
    expect(positionIn('deadline 3, column 5')).toBeNull();
  });

  it('finds the offset of a line and column in the text, clamped to it', () => {
    expect(text.slice(offsetOf(text, { line: 4, column: 15 })).startsWith('explode')).toBe(true);
    expect(offsetOf(text, { line: 1, column: 1 })).toBe(0);
    expect(text.slice(offsetOf(text, { line: 2, column: 99 }), offsetOf(text, { line: 2, column: 99 }) + 1)).toBe('\n');
    expect(offsetOf(text, { line: 99, column: 1 })).toBe(text.length);
    expect(offsetOf(text, { line: 0, column: 0 })).toBe(0);
  });

  it('puts a rule’s nested message beside the rules field', () => {
    const assigned = assignErrors(
      ['rules[0].actions[0].type is not a known action: explode (line 4, column 15)', 'rules is not valid YAML at line 1, column 1: x'],
      ['name', 'rules', 'default_receiver_team_id'],
    );
    expect(assigned.byField.rules).toHaveLength(2);
    expect(assigned.general).toEqual([]);
  });
});
