// The alert item of an alert whose routing its create decided (lib/alerts/direct-routing.ts) holds no
// part of the decision that the alert derives (lib/alerts/store.ts, "a routing decided at create,
// stored implicitly"): read back, it is the alert as written, whatever changed since (a hand-off's
// assignee, a reassignment, new destinations), and its decision costs the item nothing while derived.
import { describe, expect, it } from 'vitest';
import { withRoutingDecidedAtCreate } from '../../lib/alerts/direct-routing';
import type { AlertRecord } from '../../lib/alerts/records';
import { alertDefaults, alertItem, decodeAlert } from '../../lib/alerts/store';
import { newId } from '../../lib/ids';

function newAlert(destinations: { teams?: string[]; people?: Record<string, string | null> }): AlertRecord {
  const now = new Date().toISOString();
  const people = destinations.people ?? {};
  return withRoutingDecidedAtCreate({
    ...alertDefaults(),
    id: newId(),
    account_id: newId(),
    tiny_id: 42,
    version: 1,
    title: 'Disk full on db-1',
    urgency: 'high',
    status: 'open',
    source_type: 'AccountUser',
    source_id: newId(),
    source_user_id: newId(),
    destination_team_ids: destinations.teams ?? [],
    destination_account_user_ids: Object.keys(people),
    destination_users: Object.fromEntries(Object.entries(people).filter((entry): entry is [string, string] => entry[1] !== null)),
    created_at: now,
    updated_at: now,
  });
}

const roundTrip = (alert: AlertRecord) => decodeAlert(alertItem(alert));
const bytes = (alert: AlertRecord) => JSON.stringify(alertItem(alert)).length;

describe('a routing decided at create, stored implicitly', () => {
  const [teamA, teamB, personA, personB] = [newId(), newId(), newId(), newId()];
  const cases: Record<string, AlertRecord> = {
    'a team': newAlert({ teams: [teamA] }),
    'two teams and two people': newAlert({ teams: [teamA, teamB], people: { [personA]: newId(), [personB]: null } }),
    'people only': newAlert({ people: { [personA]: newId() } }),
  };

  for (const [name, alert] of Object.entries(cases)) {
    it(`${name}: read back as written, the decision derived (routing_log_id '+', no record, no assignments)`, () => {
      expect(alert.routed_at).toBe(alert.created_at);
      const item = alertItem(alert);
      expect(item.routing_log_id).toBe('+');
      for (const field of ['routing', 'assignments', 'routed_at', 'assigned_team_id', 'assigned_user_id'])
        expect(item).not.toHaveProperty(field);
      expect(roundTrip(alert)).toEqual(alert);
    });
  }

  it('an assignee that differs from the derived one is stored, null too', () => {
    const alert = cases['two teams and two people'];
    const handedToPerson = { ...alert, assigned_team_id: null, assigned_user_id: 'usr-after-handoff' };
    expect(alertItem(handedToPerson)).toMatchObject({ routing_log_id: '+', assigned_team_id: null, assigned_user_id: 'usr-after-handoff' });
    expect(roundTrip(handedToPerson)).toEqual(handedToPerson);
    const reassigned = { ...alert, assigned_team_id: teamB, assigned_user_id: null };
    expect(roundTrip(reassigned)).toEqual(reassigned);
  });

  it('new destinations after the create (the decision no longer derives): stored whole, read back as written', () => {
    const alert = cases['a team'];
    const edited = { ...alert, destination_team_ids: [teamB] };
    const item = alertItem(edited);
    expect(item.routing_log_id).toBe(alert.routing_log_id);
    expect(item).toHaveProperty('assignments');
    expect(roundTrip(edited)).toEqual(edited);
  });

  it('a routing the worker decided, and an alert not routed yet, are stored as they are', () => {
    const viaRouter = { ...withRoutingDecidedAtCreate({ ...cases['a team'], routed_at: null }), routing_log_id: newId() };
    expect(alertItem(viaRouter).routing_log_id).toBe(viaRouter.routing_log_id);
    expect(roundTrip(viaRouter)).toEqual(viaRouter);
    const unrouted = { ...cases['a team'], routed_at: null, routing_log_id: null, routing: null, assignments: [], assigned_team_id: null };
    expect(roundTrip(unrouted)).toEqual(unrouted);
  });

  it('the derived decision costs the item ~200 bytes less', () => {
    const alert = cases['a team'];
    // The same alert with a decision that does not derive (another outcome id): stored whole.
    const whole = { ...alert, routing_log_id: newId() };
    expect(bytes(whole) - bytes(alert)).toBeGreaterThan(150);
  });
});
