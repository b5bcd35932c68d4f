// Healthchecks.io. Two real shapes: its built-in PagerTree integration (incident_key = the check's
// key, event_type trigger|resolve, title, description, client, client_url, tags) and its generic
// webhook integration, whose body the user writes with placeholders ($CODE, $NAME, $STATUS down|up,
// $TAGS, $NOW, and $JSON: the check as in the API, often nested as {"check": $JSON}).
import { ignore, type PayloadAdapter } from './adapter';
import { alertFields, fallbackTitle, firstLongText, firstText, getKey, isRecord, requireObject, stringList } from './fields';
import { otherFields } from './sender-details';

const UUID_AT_END = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/?$/i;

export const healthchecksAdapter: PayloadAdapter = {
  accepts: { form: true, text: false },

  adapt(payload, ctx) {
    const data = requireObject(payload, 'a Healthchecks.io notification');
    const check = isRecord(data.check) ? data.check : {};
    const read = (key: string) => getKey(data, key, true) ?? getKey(check, key, true);

    const effect = effectOf(firstText(read('event_type')), firstText(read('status')));
    const thirdpartyId = firstText(
      read('incident_key'),
      read('code'),
      read('uuid'),
      read('unique_key'),
      read('check_id'),
      read('id'),
      firstText(read('ping_url'))?.match(UUID_AT_END)?.[1],
    );

    if (effect === 'resolve') {
      if (thirdpartyId === undefined) return [ignore('up without the check code')];
      return [{ action: 'resolve', thirdpartyId }];
    }
    if (effect !== 'create') return [ignore('Healthchecks.io status is neither down nor up')];

    const description = firstLongText(read('description'), read('desc'));
    const name = firstText(read('name'), read('slug'));
    const title = firstText(read('title')) ?? (name !== undefined ? `${name} is DOWN` : fallbackTitle(description));
    // The rest of the notification and of the check ($JSON: schedule, grace, last ping, URLs, …).
    const used = ['title', 'description', 'desc', 'tags', 'status', 'event_type', 'check'];
    return [
      {
        action: 'create',
        thirdpartyId: thirdpartyId ?? ctx.fallbackId,
        alert: alertFields({
          title,
          description,
          urgency: ctx.urgency,
          tags: stringList(read('tags'), /[\s,]+/),
          additionalData: [...otherFields(data, used, [title, description]), ...otherFields(check, used, [title, description])],
        }),
      },
    ];
  },
};

function effectOf(eventType: string | undefined, status: string | undefined): 'create' | 'resolve' | undefined {
  switch (eventType?.toLowerCase()) {
    case 'trigger':
      return 'create';
    case 'resolve':
      return 'resolve';
  }
  switch (status?.toLowerCase()) {
    case 'down':
      return 'create';
    case 'up':
      return 'resolve';
  }
  return undefined;
}
