// What the escalation engine reads, loaded for one step: teams with their policies, who is on call
// on each of their schedules at the step's time, the account users involved (existence, default
// channels, notification rules, the channels they have an address for) and the alert itself. The engine asks for teams it lacks
// (advanceWithLoader); account users it never loaded are assumed to exist (a page to one who is
// gone is skipped when it is carried out).
import { mayReach } from '../account-users/addresses';
import { getAccountUsers } from '../account-users/store';
import { now as clockNow } from '../clock';
import type { AccountUserRecord } from '../account-users/records';
import type { AlertRecord } from '../alerts/records';
import { getEscalationPolicies } from '../escalation-policies/store';
import { newId } from '../ids';
import type { OncallSpan } from '../oncall/types';
import { listEventsOfSchedule } from '../events/store';
import type { OncallEvent } from '../oncall/types';
import type { EscalationPolicyRecord } from '../escalation-policies/records';
import type { TeamRecord } from '../teams/records';
import { getTeams } from '../teams/store';
import { CHANNELS } from '../notify/records';
import type { NotificationRuleDefinition } from '../rule-engine/pick-channels';
import { loadOnce } from '../load-once';
import { oncallFromSpans, type EngineInputs, type PageTemplate, type TeamInput } from './engine';

// Who is paged how (notification rules, the rule engine that reads them): loaded with the first
// people a step loads, the only steps that can page. A step that records a stop loads nobody, so the
// functions that acknowledge by a page's answer (one-click responses, SMS replies) do not load it at
// their start (issue 21).
const deliveryModule = /* @__PURE__ */ loadOnce(() => import('./delivery-plan'));
type DeliveryModule = Awaited<ReturnType<typeof deliveryModule>>;

// Who is on call (schedules' events, their recurrences and time zones): loaded with the first teams a
// step loads, for the same reason: a stop loads no team.
const oncallModules = /* @__PURE__ */ loadOnce(() => Promise.all([import('../oncall/oncall-spans'), import('../events/records')]));

interface TeamSnapshot {
  team: TeamRecord | null;
  policy: EscalationPolicyRecord | null;
  events: OncallEvent[];
}

/**
 * Teams as read within the last second, with their policy and their schedule's events, shared by
 * the steps of one instance: a storm's thousand steps for one team read it once, and concurrent
 * reads of one team share one round trip. Who is on call is still computed for each step's own
 * time; a change to the team, its policy or its schedule is seen within a second.
 */
const snapshots = new Map<string, { at: number; snapshot: Promise<TeamSnapshot> }>();
const SNAPSHOT_MS = 1_000;

function teamSnapshots(accountId: string, teamIds: readonly string[]): Promise<TeamSnapshot[]> {
  // The service's clock, so that moving it (tests) ages the snapshots too; one from a later time than
  // now (a clock set back) is not trusted either.
  const now = clockNow();
  const missing = teamIds.filter((id) => {
    const cached = snapshots.get(`${accountId}|${id}`);
    return !cached || now - cached.at >= SNAPSHOT_MS || now < cached.at;
  });
  if (missing.length) {
    const loading = loadSnapshots(accountId, missing);
    for (const id of missing) {
      const snapshot = loading.then((all) => all.get(id)!);
      snapshots.set(`${accountId}|${id}`, { at: now, snapshot });
      snapshot.catch(() => snapshots.delete(`${accountId}|${id}`));
    }
    if (snapshots.size > 5_000) for (const key of [...snapshots.keys()].slice(0, 1_000)) snapshots.delete(key);
  }
  return Promise.all(teamIds.map((id) => snapshots.get(`${accountId}|${id}`)!.snapshot));
}

// What a step reads of the account's configuration (teams, policies, schedules' events, people) is
// read eventually consistent, at half the read units: a change to it is promised to steps within a
// second (the snapshots above), and such a read lags a write by about that much at most.
const CONFIGURATION = { consistent: false };

async function loadSnapshots(accountId: string, teamIds: readonly string[]): Promise<Map<string, TeamSnapshot>> {
  const [teams, [, { toOncallEvent }]] = await Promise.all([getTeams(accountId, teamIds, CONFIGURATION), oncallModules()]);
  const policyIds = [...new Set(teams.map((team) => team.escalation_policy_id).filter((id): id is string => Boolean(id)))];
  const [policies, events] = await Promise.all([
    getEscalationPolicies(accountId, policyIds, CONFIGURATION),
    Promise.all(
      teams.map(async (team) =>
        team.schedule_id ? (await listEventsOfSchedule(accountId, team.schedule_id, CONFIGURATION)).map(toOncallEvent) : [],
      ),
    ),
  ]);
  const policyById = new Map(policies.map((policy) => [policy.id, policy]));
  const out = new Map<string, TeamSnapshot>(teamIds.map((id) => [id, { team: null, policy: null, events: [] }]));
  teams.forEach((team, index) => {
    out.set(team.id, {
      team,
      policy: (team.escalation_policy_id && policyById.get(team.escalation_policy_id)) || null,
      events: events[index],
    });
  });
  return out;
}

export class StepInputs {
  readonly teams = new Map<string, TeamRecord | null>();
  private readonly teamInputs = new Map<string, TeamInput | null>();
  private readonly spans = new Map<string, OncallSpan[]>();
  readonly accountUsers = new Map<string, AccountUserRecord | null>();
  private readonly rules = new Map<string, NotificationRuleDefinition | null>();
  /** lib/escalation/delivery-plan.ts, once people were loaded (deliveryModule). */
  private delivery: DeliveryModule | undefined;

  constructor(
    readonly accountId: string,
    readonly alert: AlertRecord,
    readonly at: number,
    private readonly timeScale: number,
  ) {}

  /** Teams, their policies and their on-call spans at the step's time, then the people they name. */
  async loadTeams(teamIds: readonly string[]): Promise<void> {
    const wanted = [...new Set(teamIds)].filter((id) => !this.teamInputs.has(id));
    if (wanted.length === 0) return;
    const [loaded, [{ oncallAt }]] = await Promise.all([teamSnapshots(this.accountId, wanted), oncallModules()]);
    const teams: TeamRecord[] = [];
    const policyById = new Map<string, EscalationPolicyRecord>();
    for (const [index, id] of wanted.entries()) {
      const { team, policy, events } = loaded[index];
      this.teams.set(id, team);
      if (!team) {
        this.teamInputs.set(id, null);
        continue;
      }
      teams.push(team);
      if (policy) policyById.set(policy.id, policy);
      this.spans.set(id, oncallAt(events, this.at));
      this.teamInputs.set(id, {
        policy: policy
          ? {
              escalation_layers: policy.escalation_layers,
              repeat: policy.repeat,
              reassign_team_ids: policy.reassign_team_ids,
              reassign_account_user_ids: policy.reassign_account_user_ids,
            }
          : null,
        member_account_user_ids: team.member_account_user_ids ?? [],
        admin_account_user_ids: team.admin_account_user_ids ?? [],
        drop_notifications: team.drop_notifications ?? 'none',
        drop_notification_account_user_ids: team.drop_notification_account_user_ids ?? [],
      });
    }
    const people = new Set<string>();
    for (const team of teams) {
      [
        ...(team.member_account_user_ids ?? []),
        ...(team.admin_account_user_ids ?? []),
        ...(team.drop_notification_account_user_ids ?? []),
      ].forEach((id) => people.add(id));
      const policy = team.escalation_policy_id ? policyById.get(team.escalation_policy_id) : undefined;
      policy?.reassign_account_user_ids.forEach((id) => people.add(id));
      for (const span of this.spans.get(team.id) ?? []) span.attendees.forEach((a) => people.add(a.attendeeId));
    }
    await this.loadAccountUsers([...people]);
  }

  async loadAccountUsers(ids: readonly string[]): Promise<void> {
    const wanted = [...new Set(ids)].filter((id) => !this.accountUsers.has(id));
    if (wanted.length === 0) return;
    // Concurrent steps' people share a BatchGetItem (lib/store/items.ts getItem: reads of one turn go together).
    const [found, delivery] = await Promise.all([getAccountUsers(this.accountId, wanted, CONFIGURATION), deliveryModule()]);
    this.delivery = delivery;
    const byId = new Map(found.map((record) => [record.id, record]));
    for (const id of wanted) this.accountUsers.set(id, byId.get(id) ?? null);
    const rules = await delivery.loadNotificationRules(this.accountId, found);
    for (const record of found) this.rules.set(record.id, rules.get(record.id) ?? null);
  }

  /**
   * The channels a one-off notification (alert_dropped, alert_rejected, event_goc) goes out on: its
   * plan's immediate step (delivery-plan.ts, loaded with the people: a step that pages by default
   * channels alone loads no notification rule's parser).
   */
  immediateChannels(accountUser: AccountUserRecord, template: string, alert: AlertRecord | null, at: number): string[] {
    if (!this.delivery) throw new Error('channels asked before the people were loaded');
    return this.delivery.immediateChannels(accountUser, template, alert, this.rules.get(accountUser.id) ?? null, at);
  }

  /** The account user's notification rule as loaded with them (null: none, or not loaded). */
  ruleOf(accountUserId: string): NotificationRuleDefinition | null {
    return this.rules.get(accountUserId) ?? null;
  }

  inputs(): EngineInputs {
    return {
      team: (teamId) => this.teamInputs.get(teamId),
      // The live map: teams loaded later (a reassignment's) are seen by the retried step.
      ...oncallFromSpans(this.spans),
      timeScale: this.timeScale,
      newWorkflowId: () => newId(),
      // A deactivated person (SCIM active: false) is nobody to page: a layer of theirs alone is skipped, a page to them alone dropped.
      accountUserExists: (id) => {
        const accountUser = this.accountUsers.get(id);
        return accountUser === undefined || (accountUser !== null && !accountUser.deactivated_at);
      },
      deliveryPlan: (accountUserId: string, template: PageTemplate) => {
        const accountUser = this.accountUsers.get(accountUserId);
        if (!accountUser) return [{ at_offset_ms: 0, channels: null }];
        // A person is known only once loadAccountUsers has loaded the module too.
        if (!this.delivery) throw new Error('a delivery plan asked before the people were loaded');
        return this.delivery.deliveryPlanFor(accountUser, template, this.alert, this.rules.get(accountUserId) ?? null, this.at);
      },
      receivableChannels: (accountUserId: string) => {
        const accountUser = this.accountUsers.get(accountUserId);
        return accountUser ? CHANNELS.filter((channel) => mayReach(accountUser, channel)) : [];
      },
    };
  }
}
