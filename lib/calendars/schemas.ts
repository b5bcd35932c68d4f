// Representations of calendar feeds (contract §14): the secret address, answered once when made.
import * as z from 'zod';
import { lazyStrictObject } from '../lazy-schema';
import { documentNames } from '../http/document-names';

export const CalendarAddressV4 = lazyStrictObject(() => ({
  /** `<base>/public/calendars/<token>.ics`; anyone who has it can read the feed until it is revoked. */
  url: z.string(),
}));

// The names the OpenAPI document gives these schemas (#/components/schemas/<name>).
documentNames.add(CalendarAddressV4, { id: 'CalendarAddressV4' });
