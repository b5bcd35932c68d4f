// Notification workflows stored before issue 21 (docs/api.md#escalation-and-notifications): one per
// person paged for an alert. A workflow now lives in the alert's escalation item alone
// (lib/escalation: open there before any of its pages goes out, closed by the step that closes it;
// one-click links, SMS replies and storm flushes read it there). The items written before stay
// where they were and are still counted by the recount (fields `workflow:…` of the notifications'
// counter item); nothing reads or writes them otherwise.
//   workflow     A#<acc>#WKF / <id>
// Workflows stored before that kept an open index entry, gsi1: A#<acc>#WKF#OPEN#<alert id> /
// <account user id>#<id>, which nothing reads.
import { entityStore, type Entity } from '../store/entity-store';
import { typeOf } from '../entities';

export type WorkflowStatus = 'open' | 'acknowledged' | 'rejected' | 'timed_out' | 'closed';

export interface WorkflowRecord extends Entity {
  id: string;
  account_id: string;
  alert_id: string;
  account_user_id: string;
  status: WorkflowStatus;
  layer: number | null;
  team_id?: string | null;
  assignment_id?: string | null;
  round?: number | null;
  template?: string | null;
  created_at: string;
  updated_at: string;
  version: number;
}

entityStore<WorkflowRecord>({
  kind: 'workflow',
  counts: (workflow) => [`status:${workflow.status}`],
  counterItem: { type: typeOf('notification'), prefix: 'workflow:', formerType: typeOf('workflow') },
});
