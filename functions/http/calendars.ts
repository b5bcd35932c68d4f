// Entry point: calendar feeds (contract §14). Flow: route → lib/calendars (who may, the address, or
// the feed) → 201 {url}, 204, or the iCalendar text.
import { httpHandler } from '../../lib/api/handler';
import { personToManage, scheduleToEdit, scheduleToRead } from '../../lib/calendars/calendar-owners';
import { createCalendarFeed } from '../../lib/calendars/create-calendar-feed';
import { readCalendarFeed } from '../../lib/calendars/read-calendar-feed';
import { revokeCalendarFeeds } from '../../lib/calendars/revoke-calendar-feeds';
import { calendarRoutes } from '../../lib/calendars/routes';
import { baseUrlOf } from '../../lib/http/base-url';
import { created, noContent } from '../../lib/http/replies';

export const handler = httpHandler(calendarRoutes, {
  createScheduleCalendar: async (req) =>
    created(await createCalendarFeed(req.principal, await scheduleToRead(req.principal, req.params.id), baseUrlOf(req))),
  revokeScheduleCalendars: async (req) => {
    await revokeCalendarFeeds(req.principal, await scheduleToEdit(req.principal, req.params.id));
    return noContent();
  },
  createPersonCalendar: async (req) =>
    created(await createCalendarFeed(req.principal, await personToManage(req.principal, req.params.id), baseUrlOf(req))),
  revokePersonCalendars: async (req) => {
    await revokeCalendarFeeds(req.principal, await personToManage(req.principal, req.params.id));
    return noContent();
  },
  feed: async (req) => {
    const feed = await readCalendarFeed(req.params.token);
    return {
      status: 200,
      text: { contentType: 'text/calendar; charset=utf-8', body: feed.body },
      // The address is the secret: no shared cache keeps it, no page it is opened from learns it.
      headers: {
        'cache-control': 'private, max-age=300',
        'referrer-policy': 'no-referrer',
        'content-disposition': `inline; filename="calendar.ics"`,
      },
    };
  },
});
