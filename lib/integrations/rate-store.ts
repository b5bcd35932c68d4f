// Data access for the inbound rate limit (lib/integrations/ACCESS-PATTERNS.md, "Rate limit"): one
// token bucket per integration, shared by every instance. Its writes and arithmetic are
// lib/store/gcra-bucket.ts's; this file knows its key.
//   bucket   INT#<integration>#RATE / BUCKET   {tat, expires_at}   (an absent item is a full bucket)
import type { BucketKey } from '../store/gcra-bucket';

export const rateBucketKey = (integrationId: string): BucketKey => ({ pk: `INT#${integrationId}#RATE`, sk: 'BUCKET' });
