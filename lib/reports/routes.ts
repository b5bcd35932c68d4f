// The routes of the `reports` function (functions/http/reports.ts): alert and page reports
// (contract §14). Only /api/v4 has them; anyone in the account may read them.
import { declareRoutes } from '../http/route-contract';
import { AlertReportV4, PageReportV4 } from './schemas';

const v4 = '/api/v4';
const WINDOW = [
  { name: 'start', required: true, description: 'A UTC midnight: YYYY-MM-DD, or an ISO 8601 datetime at 00:00 UTC', example: '2026-03-01' },
  {
    name: 'end',
    required: true,
    description: 'A UTC midnight after start (exclusive), at most 366 days after it',
    example: '2026-03-29',
  },
  {
    name: 'team_id',
    required: false,
    description: 'Only alerts of this team (destinations or assignment): ULID or tem_ id',
    example: '01JD8X6Q3B5YV0Z8K2N4R6T9WC',
  },
];
const WHOLE_DAYS =
  'Reports count whole UTC days: a bound that is not a UTC midnight, end not after start, a window over 366 days, a team_id that names no team of the account, or an unknown parameter is a 422 naming it.';

export const reportRoutes = declareRoutes('reports', {
  alertReport: {
    method: 'GET',
    path: `${v4}/reports/alerts`,
    summary: 'Alerts created per day or week and what they came to',
    description: `Per bucket (UTC days, or weeks from Monday 00:00 UTC cut to the window): the alerts created in it, how many of them have been acknowledged and resolved so far and how many are dropped now, and their times to acknowledge and to resolve measured from creation (mean exact; p50 and p90 from fixed log-spaced histograms: exact below 16 s, else within 9.1 %). ${WHOLE_DAYS}`,
    tag: 'Reports',
    query: [...WINDOW, { name: 'bucket', required: false, description: 'day (default) or week', example: 'week' }],
    success: [{ status: 200, description: 'The buckets and the whole window', schema: AlertReportV4 }],
    errors: [401, 'invalid'],
  },
  pageReport: {
    method: 'GET',
    path: `${v4}/reports/pages`,
    summary: 'Pages per person and channel, night pages and acknowledgements',
    description: `Per person paged or acknowledging in the window: the page notifications recorded per channel, those recorded between 22:00 and 07:00 on the person's wall clock (their time zone at the time), and the alerts they were first to acknowledge; with team_id, those of that team's alerts. Most pages first. ${WHOLE_DAYS}`,
    tag: 'Reports',
    query: WINDOW,
    success: [{ status: 200, description: 'One entry per person', schema: PageReportV4 }],
    errors: [401, 'invalid'],
  },
});
