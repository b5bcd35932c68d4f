// The representation schemas of the OpenAPI document are pinned to what the serializers return:
// each pair must have the same TypeScript type (checked by tsc, which `npm test` runs first), and a
// real serialized object must pass its schema (strict: no field more, none less).
import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as z from 'zod';
import type { accountUserToV4, userToV4 } from '../../lib/account-users/represent';
import type { accountToEarlier } from '../../lib/accounts/represent';
import type { commentToV4 } from '../../lib/alerts/represent';
import type { alertToEarlier, alertToV4 } from '../../lib/alerts/represent';
import type { createApiKey } from '../../lib/api-keys/create-api-key';
import type { apiKeyToV4 } from '../../lib/api-keys/represent';
import type { escalationPolicyToV4 } from '../../lib/escalation-policies/represent';
import type { eventToEarlier, eventToV4 } from '../../lib/events/represent';
import type { InboundAnswer } from '../../lib/integrations/ingest/receive-webhook';
import { INTEGRATION_TYPES } from '../../lib/integrations/integration-types';
import { integrationTypeToV4, type integrationToEarlier, type integrationToV4 } from '../../lib/integrations/represent';
import type { logToEarlier } from '../../lib/logs/represent';
import type { maintenanceWindowToV4 } from '../../lib/maintenance-windows/represent';
import type { broadcastToV4 } from '../../lib/broadcasts/represent';
import type { notificationToEarlier, notificationToV4 } from '../../lib/notify/represent';
import type { responseJson } from '../../lib/page-responses/response-page';
import * as rep from '../../lib/openapi/representations';
import type { OncallEntry } from '../../lib/schedules/read-oncall';
import type { scheduleToV4 } from '../../lib/schedules/represent';
import type { teamToV4 } from '../../lib/teams/represent';
import { TIME_ZONE_NAMES } from '../../lib/oncall/time-zones';
import type { routerToEarlier, routerToV4 } from '../../lib/routers/represent';
import type { notificationRuleToEarlier, notificationRuleToV4 } from '../../lib/notification-rules/represent';
import type { automationToEarlier } from '../../lib/automations/represent';
import type { RouterExplanation, NotificationRuleExplanation } from '../../lib/rule-engine';

type Out<S extends z.ZodType> = z.output<S>;

describe('representation schemas', () => {
  it('have the types the serializers return', () => {
    expectTypeOf<ReturnType<typeof alertToV4>>().toEqualTypeOf<Out<typeof rep.AlertV4>>();
    // `created` comes through a helper typed for nullable timestamps; created_at always exists.
    expectTypeOf<Omit<ReturnType<typeof alertToEarlier>, 'created'>>().toEqualTypeOf<Omit<Out<typeof rep.AlertEarlier>, 'created'>>();
    expectTypeOf<Out<typeof rep.AlertEarlier>['created']>().toEqualTypeOf<number>();
    expectTypeOf<ReturnType<typeof commentToV4>>().toEqualTypeOf<Out<typeof rep.CommentV4>>();
    expectTypeOf<ReturnType<typeof userToV4>>().toEqualTypeOf<Out<typeof rep.UserV4>>();
    expectTypeOf<ReturnType<typeof accountUserToV4>>().toEqualTypeOf<Out<typeof rep.AccountUserV4>>();
    expectTypeOf<ReturnType<typeof accountToEarlier>>().toEqualTypeOf<Out<typeof rep.AccountEarlier>>();
    expectTypeOf<ReturnType<typeof apiKeyToV4>>().toEqualTypeOf<Out<typeof rep.ApiKeyV4>>();
    expectTypeOf<Awaited<ReturnType<typeof createApiKey>>>().toEqualTypeOf<Out<typeof rep.ApiKeyCreatedV4>>();
    expectTypeOf<ReturnType<typeof teamToV4>>().toEqualTypeOf<Out<typeof rep.TeamV4>>();
    expectTypeOf<ReturnType<typeof scheduleToV4>>().toEqualTypeOf<Out<typeof rep.ScheduleV4>>();
    expectTypeOf<ReturnType<typeof eventToV4>>().toEqualTypeOf<Out<typeof rep.EventV4>>();
    expectTypeOf<ReturnType<typeof eventToEarlier>>().toEqualTypeOf<Out<typeof rep.EventEarlier>>();
    expectTypeOf<OncallEntry>().toEqualTypeOf<Out<typeof rep.OncallEntry>>();
    expectTypeOf<ReturnType<typeof escalationPolicyToV4>>().toEqualTypeOf<Out<typeof rep.EscalationPolicyV4>>();
    expectTypeOf<ReturnType<typeof integrationTypeToV4>>().toEqualTypeOf<Out<typeof rep.IntegrationTypeV4>>();
    expectTypeOf<ReturnType<typeof integrationToV4>>().toEqualTypeOf<Out<typeof rep.IntegrationV4>>();
    expectTypeOf<ReturnType<typeof integrationToEarlier>>().toEqualTypeOf<Out<typeof rep.IntegrationEarlier>>();
    expectTypeOf<ReturnType<typeof maintenanceWindowToV4>>().toEqualTypeOf<Out<typeof rep.MaintenanceWindowV4>>();
    expectTypeOf<ReturnType<typeof broadcastToV4>>().toEqualTypeOf<Out<typeof rep.BroadcastV4>>();
    expectTypeOf<ReturnType<typeof logToEarlier>>().toEqualTypeOf<Out<typeof rep.LogEarlier>>();
    expectTypeOf<InboundAnswer>().toEqualTypeOf<Out<typeof rep.InboundAccepted>>();
    expectTypeOf<ReturnType<typeof notificationToV4>>().toEqualTypeOf<Out<typeof rep.NotificationV4>>();
    expectTypeOf<ReturnType<typeof notificationToEarlier>>().toEqualTypeOf<Out<typeof rep.NotificationEarlier>>();
    expectTypeOf<ReturnType<typeof responseJson>>().toEqualTypeOf<Out<typeof rep.ResponseView>>();
    expectTypeOf<ReturnType<typeof routerToV4>>().toEqualTypeOf<Out<typeof rep.RouterV4>>();
    expectTypeOf<ReturnType<typeof routerToEarlier>>().toEqualTypeOf<Out<typeof rep.RouterEarlier>>();
    expectTypeOf<ReturnType<typeof notificationRuleToEarlier>>().toEqualTypeOf<Out<typeof rep.RouterEarlier>>();
    expectTypeOf<ReturnType<typeof notificationRuleToV4>>().toEqualTypeOf<Out<typeof rep.NotificationRuleV4>>();
    expectTypeOf<ReturnType<typeof automationToEarlier>>().toEqualTypeOf<Out<typeof rep.AutomationEarlier>>();
    // The dry runs' explanations (lib/rule-engine) are checked against their schemas on real responses.
    expectTypeOf<keyof RouterExplanation>().toEqualTypeOf<keyof Out<typeof rep.RouterExplanation>>();
    expectTypeOf<keyof NotificationRuleExplanation>().toEqualTypeOf<keyof Out<typeof rep.NotificationRuleExplanation>>();
  });

  it('accept the catalogue and the time zone names as served', () => {
    for (const type of INTEGRATION_TYPES) expect(rep.IntegrationTypeV4.safeParse(integrationTypeToV4(type)).success).toBe(true);
    expect(rep.TimeZoneNames.safeParse(TIME_ZONE_NAMES).success).toBe(true);
  });

  it('refuse a field a serializer might add without telling the document', () => {
    const type = integrationTypeToV4(INTEGRATION_TYPES[0]);
    expect(rep.IntegrationTypeV4.safeParse({ ...type, url: 'https://example.com' }).success).toBe(false);
    const { slug: _slug, ...withoutSlug } = type;
    expect(rep.IntegrationTypeV4.safeParse(withoutSlug).success).toBe(false);
  });
});
