// Representations of the reports (contract §14, docs/api.md#reports).
import * as z from 'zod';
import { lazySchema, lazyStrictObject } from '../lazy-schema';
import { documentNames } from '../http/document-names';
import { count, instant, ulid } from '../http/response-fields';

const Seconds = lazySchema(() => z.number().nullable());

/** Times from creation, in seconds (null when no alert of the bucket reached that state). */
export const DurationStats = lazyStrictObject(() => ({
  /** Exact, to the millisecond. */
  mean: Seconds,
  /** From the day histograms: exact below 16 s, else within 9.1 %. */
  p50: Seconds,
  p90: Seconds,
}));

export const AlertReportRow = lazyStrictObject(() => ({
  start: instant,
  end: instant,
  /** Alerts created in the bucket. */
  created: count,
  /** Of those, acknowledged at least once so far. */
  acknowledged: count,
  /** Of those, resolved so far. */
  resolved: count,
  /** Of those, dropped now. */
  dropped: count,
  mtta: DurationStats,
  mttr: DurationStats,
}));

export const AlertReportV4 = lazyStrictObject(() => ({
  start: instant,
  end: instant,
  bucket: z.enum(['day', 'week']),
  team_id: ulid.nullable(),
  buckets: z.array(AlertReportRow),
  /** The whole window as one bucket. */
  total: AlertReportRow,
}));

const ChannelCounts = lazyStrictObject(() => ({
  push: count,
  email: count,
  sms: count,
  voice: count,
  slack: count,
}));

export const PageReportPerson = lazyStrictObject(() => ({
  account_user_id: ulid,
  /** Null when the account user has been deleted since. */
  name: z.string().nullable(),
  pages: ChannelCounts,
  total_pages: count,
  /** Pages recorded between 22:00 and 07:00 on the person's wall clock (their time zone then). */
  night_pages: count,
  /** Alerts this person was the first to acknowledge. */
  acknowledged: count,
}));

export const PageReportV4 = lazyStrictObject(() => ({
  start: instant,
  end: instant,
  team_id: ulid.nullable(),
  people: z.array(PageReportPerson),
}));

// The names the OpenAPI document gives these schemas (#/components/schemas/<name>).
documentNames.add(DurationStats, { id: 'ReportDurationStats' });
documentNames.add(AlertReportRow, { id: 'AlertReportRow' });
documentNames.add(AlertReportV4, { id: 'AlertReportV4' });
documentNames.add(PageReportPerson, { id: 'PageReportPerson' });
documentNames.add(PageReportV4, { id: 'PageReportV4' });
