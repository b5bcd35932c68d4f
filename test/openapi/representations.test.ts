// The representation schemas (lib/<area>/schemas.ts) are what the serializers return: each
// serializer's return type is its schema's input (represent.ts), and each handler's answer must fit
// its route's declared schema, both checked by the compiler (`npm run typecheck`). Here, a real
// serialized object passes its schema at run time too, and the schemas are strict: no field more,
// none less.
import { describe, expect, it } from 'vitest';
import { TIME_ZONE_NAMES } from '../../lib/oncall/time-zones';
import { TimeZoneNames } from '../../lib/events/schemas';
import { INTEGRATION_TYPES } from '../../lib/integrations/integration-types';
import { integrationTypeToV4 } from '../../lib/integrations/represent';
import { IntegrationTypeV4 } from '../../lib/integrations/schemas';

describe('representation schemas', () => {
  it('accept the catalogue and the time zone names as served', () => {
    for (const type of INTEGRATION_TYPES) expect(IntegrationTypeV4.safeParse(integrationTypeToV4(type)).success).toBe(true);
    expect(TimeZoneNames.safeParse(TIME_ZONE_NAMES).success).toBe(true);
  });

  it('refuse a field a serializer might add without telling the document', () => {
    const type = integrationTypeToV4(INTEGRATION_TYPES[0]);
    expect(IntegrationTypeV4.safeParse({ ...type, url: 'https://example.com' }).success).toBe(false);
    const { slug: _slug, ...withoutSlug } = type;
    expect(IntegrationTypeV4.safeParse(withoutSlug).success).toBe(false);
  });
});
