// Notification workflows (docs/api.md#escalation-and-notifications): one per person paged for an alert. Escalation opens them;
// acknowledging, rejecting or timing out closes them. Everything that reads one knows its id (a page's
// notification, one-click link or phone page names it), and which of an alert's are open is the
// escalation item's to say (reject reads that), so a workflow is in no index.
//   workflow     A#<acc>#WKF / <id>
// Workflows stored before kept an open index entry, gsi1: A#<acc>#WKF#OPEN#<alert id> / <account user
// id>#<id>, which nothing reads: their close removes it (closeWorkflowById).
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../store/client';
import { entityStore, type Entity } from '../store/entity-store';
import { typeOf } from '../entities';
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

// No index keys: an open index entry was a whole copy of the workflow, put with it and deleted at its
// close, 2 of a workflow's 4 write units, for a list nothing read (docs/ARCHITECTURE.md, "Write budget
// per alert life").
// Its counters (`workflow:total`, `workflow:status:<status>`) are fields of the notifications' counter
// item: a step that opens or closes workflows pages or stops paging, and counts notifications in that
// item in the same write, where a counter item of its own cost it one more (A#<acc>#COUNT / WKF, left
// as it was).
const workflows = entityStore<WorkflowRecord>({
  kind: 'workflow',
  counts: (workflow) => [`status:${workflow.status}`],
  counterItem: { type: typeOf('notification'), prefix: 'workflow:', formerType: typeOf('workflow') },
});

export const insertWorkflow = workflows.insert;
export const getWorkflow = workflows.get;

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
        // A workflow stored before leaves its open index entry with the status.
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
  await workflows.moveCounts(accountId, { 'status:open': -1, [`status:${status}`]: 1 });
  return true;
}
