// The index keys of a stored team: the one place that derives them, so every write of a team
// (the teams resource, membership edits from account users) keeps them the same.
//   gsi1: A#<acc>#TEAM#SKD#<schedule id> / <team id>   teams whose active schedule it is
//   gsi2: A#<acc>#TEAM#ESC#<policy id> / <team id>     teams whose active escalation policy it is
import type { Entity } from '../store/entities';

export function teamsOfSchedulePartition(accountId: string, scheduleId: string): string {
  return `A#${accountId}#TEAM#SKD#${scheduleId}`;
}

export function teamsOfPolicyPartition(accountId: string, policyId: string): string {
  return `A#${accountId}#TEAM#ESC#${policyId}`;
}

/** Takes the whole stored team (membership edits pass the record they loaded, with every field). */
export function teamIndexKeys(
  team: Entity & { schedule_id?: string | null; escalation_policy_id?: string | null },
): Record<string, string | undefined> {
  return {
    gsi1pk: team.schedule_id ? teamsOfSchedulePartition(team.account_id, team.schedule_id) : undefined,
    gsi1sk: team.schedule_id ? team.id : undefined,
    gsi2pk: team.escalation_policy_id ? teamsOfPolicyPartition(team.account_id, team.escalation_policy_id) : undefined,
    gsi2sk: team.escalation_policy_id ? team.id : undefined,
  };
}
