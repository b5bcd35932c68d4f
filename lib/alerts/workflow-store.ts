// Notification workflows (docs/api.md#escalation-and-notifications): one per person paged for an alert. Escalation opens them;
// acknowledging, rejecting or timing out closes them. Reject needs the caller's open workflow.
//   workflow     A#<acc>#WKF / <id>
//   open ones    gsi1: A#<acc>#WKF#OPEN#<alert id> / <account user id>#<id>   (sparse: only while open)
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../store/client';
import { entityStore, type Entity } from '../store/entity-store';
import { addCounts } from '../store/grouped-writes';
import { isConditionFailure } from '../store/items';
import { newId } from '../ids';

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
  /** The team whose policy paged (null for an account user paged alone), the escalation's
   * assignment and round, and the page's template (written by escalation). */
  team_id?: string | null;
  assignment_id?: string | null;
  round?: number | null;
  template?: string | null;
  created_at: string;
  updated_at: string;
  version: number;
}

const openPartition = (accountId: string, alertId: string) => `A#${accountId}#WKF#OPEN#${alertId}`;

function indexKeys(workflow: WorkflowRecord): Record<string, string | undefined> {
  if (workflow.status !== 'open') return {};
  return {
    gsi1pk: openPartition(workflow.account_id, workflow.alert_id),
    gsi1sk: `${workflow.account_user_id}#${workflow.id}`,
  };
}

const workflows = entityStore<WorkflowRecord>({ kind: 'workflow', indexKeys, counts: (workflow) => [`status:${workflow.status}`] });

export const insertWorkflow = workflows.insert;
export const getWorkflow = workflows.get;

/** Open workflows of an alert. The index may lag a close by a moment; closing checks the version. */
export async function listOpenWorkflows(accountId: string, alertId: string): Promise<WorkflowRecord[]> {
  return (await workflows.query(openPartition(accountId, alertId), { index: 'gsi1' })).filter((w) => w.status === 'open');
}

/** The open workflow of account user X for alert Y, or null. */
export async function getOpenWorkflow(accountId: string, alertId: string, accountUserId: string): Promise<WorkflowRecord | null> {
  const found = await workflows.query(openPartition(accountId, alertId), { index: 'gsi1', skBeginsWith: `${accountUserId}#` });
  return found.find((w) => w.status === 'open') ?? null;
}

/** Closes an open workflow; false when it was no longer open at the version read. */
export async function closeWorkflow(workflow: WorkflowRecord, status: Exclude<WorkflowStatus, 'open'>, now: string): Promise<boolean> {
  if (workflow.status !== 'open') return false;
  const next: WorkflowRecord = { ...workflow, status, updated_at: now, version: workflow.version + 1 };
  return workflows.save(next, workflow);
}

/**
 * Closes a workflow by id if it is still open (escalation's close effect: idempotent, a retry or a
 * concurrent close changes nothing). False when it was absent or already closed. One conditional
 * UpdateItem and no read: escalation knows the workflow's id, and its status is the condition. Its
 * call id (`_c`) tells a write whose answer was lost, retried by the SDK, from another call's close.
 */
export async function closeWorkflowById(
  accountId: string,
  id: string,
  status: Exclude<WorkflowStatus, 'open'>,
  now: string,
): Promise<boolean> {
  const call = newId();
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: workflows.key(accountId, id),
        // The open index keys go with the status (indexKeys: only while open).
        UpdateExpression: 'SET #status = :status, updated_at = :now, #version = #version + :one, #call = :call REMOVE gsi1pk, gsi1sk',
        ConditionExpression: '#status = :open',
        ExpressionAttributeNames: { '#status': 'status', '#version': 'version', '#call': '_c' },
        ExpressionAttributeValues: { ':status': status, ':now': now, ':one': 1, ':open': 'open', ':call': call },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const stored = await workflows.get(accountId, id);
    if ((stored as { _c?: string } | null)?._c !== call) return false;
  }
  await addCounts(accountId, workflows.type, { 'status:open': -1, [`status:${status}`]: 1 });
  return true;
}
