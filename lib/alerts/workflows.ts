// Notification workflows (contract §8): one per person paged for an alert. Escalation opens them;
// acknowledging, rejecting or timing out closes them. Reject needs the caller's open workflow.
//   workflow     A#<acc>#WKF / <id>
//   open ones    gsi1: A#<acc>#WKF#OPEN#<alert id> / <account user id>#<id>   (sparse: only while open)
import { insertEntity, loadEntity, saveEntity, type Entity } from '../store/entities';
import { ENTITY_TYPES, fromItem, partitionOf, queryItems } from '../store/items';

const TYPE = ENTITY_TYPES.workflow;

export type WorkflowStatus = 'open' | 'acknowledged' | 'rejected' | 'timed_out' | 'closed';

export interface WorkflowRecord extends Entity {
  id: string;
  account_id: string;
  alert_id: string;
  /** The person paged. */
  account_user_id: string;
  status: WorkflowStatus;
  /** Escalation layer that opened it (null when the alert named the person directly). */
  layer: number | null;
  created_at: string;
  updated_at: string;
  version: number;
}

const openPartition = (accountId: string, alertId: string) => `${partitionOf(accountId, TYPE)}#OPEN#${alertId}`;

function indexKeys(workflow: WorkflowRecord): Record<string, string | undefined> {
  if (workflow.status !== 'open') return {};
  return {
    gsi1pk: openPartition(workflow.account_id, workflow.alert_id),
    gsi1sk: `${workflow.account_user_id}#${workflow.id}`,
  };
}

export async function insertWorkflow(workflow: WorkflowRecord): Promise<boolean> {
  return insertEntity(TYPE, workflow, { indexKeys: indexKeys(workflow), counts: [`status:${workflow.status}`] });
}

export async function getWorkflow(accountId: string, id: string): Promise<WorkflowRecord | null> {
  return loadEntity<WorkflowRecord>(accountId, TYPE, id);
}

/** Open workflows of an alert. The index may lag a close by a moment; closing checks the version. */
export async function openWorkflowsOfAlert(accountId: string, alertId: string): Promise<WorkflowRecord[]> {
  const items = await queryItems(openPartition(accountId, alertId), { index: 'gsi1' });
  return items.map((item) => fromItem<WorkflowRecord>(item)).filter((w) => w.status === 'open');
}

/** The open workflow of account user X for alert Y, or null. */
export async function openWorkflowOf(accountId: string, alertId: string, accountUserId: string): Promise<WorkflowRecord | null> {
  const items = await queryItems(openPartition(accountId, alertId), {
    index: 'gsi1',
    skBeginsWith: `${accountUserId}#`,
  });
  const found = items.map((item) => fromItem<WorkflowRecord>(item)).find((w) => w.status === 'open');
  return found ?? null;
}

/** Closes an open workflow; false when it was no longer open at the version read. */
export async function closeWorkflow(workflow: WorkflowRecord, status: Exclude<WorkflowStatus, 'open'>, now: string): Promise<boolean> {
  if (workflow.status !== 'open') return false;
  const next: WorkflowRecord = { ...workflow, status, updated_at: now, version: workflow.version + 1 };
  return saveEntity(TYPE, next, {
    indexKeys: indexKeys(next),
    countsBefore: [`status:${workflow.status}`],
    counts: [`status:${next.status}`],
  });
}
