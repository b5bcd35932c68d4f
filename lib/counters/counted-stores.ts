// Every entity store of the service, imported for what importing does: each registers how its records
// are counted (lib/store/entity-store.ts), so the recount knows every counter. A new area's store goes
// here too: test/counters checks that every counter item an account holds has a registered kind.
import '../account-users/store';
import '../alerts/comment-store';
import '../alerts/store';
import '../alerts/workflow-store';
import '../api-keys/store';
import '../audit-events/store';
import '../automations/store';
import '../broadcasts/store';
import '../escalation-policies/store';
import '../events/store';
import '../integrations/store';
import '../logs/store';
import '../maintenance-windows/store';
import '../notification-rules/store';
import '../notify/store';
import '../routers/store';
import '../schedules/store';
import '../teams/store';
