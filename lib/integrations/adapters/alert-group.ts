// Alertmanager-style alert groups (Prometheus Alertmanager's webhook, Grafana unified alerting): the
// description carries every common annotation that explains the problem (summary, description), and
// the rest of what the group says is kept as details: common labels, other common annotations
// (runbook_url, …), the external URL, how many alerts fire, and each firing alert's labels, start
// and links. Pure.
import { dig, isRecord, longText, type Payload } from './fields';
import { datum, details, type Datum } from './sender-details';

const EXPLAINING = ['summary', 'description'] as const;

/** summary and description of the common annotations (else, with `firstAlert`, of the first
 * alert), each once. */
export function groupDescription(data: Payload, options: { firstAlert: boolean } = { firstAlert: true }): string | undefined {
  const firstAlert: unknown = Array.isArray(data.alerts) ? data.alerts[0] : undefined;
  const from = (annotations: unknown) =>
    EXPLAINING.map((key) => longText(dig(annotations, key))).filter((part): part is string => part !== undefined);
  let parts = from(data.commonAnnotations);
  if (parts.length === 0 && options.firstAlert) parts = from(dig(firstAlert, 'annotations'));
  const distinct = [...new Set(parts)];
  return distinct.length > 0 ? distinct.join('\n\n') : undefined;
}

const recordOf = (value: unknown): Payload => (isRecord(value) ? value : {});

/** Everything but the annotations already in the description. `perAlert`: extra fields of each
 * alert to keep (Grafana's silenceURL, dashboardURL, panelURL, values, imageURL). */
export function groupDetails(data: Payload, perAlert: readonly string[] = []): Datum[] {
  const commonAnnotations = recordOf(data.commonAnnotations);
  const alerts = Array.isArray(data.alerts) ? data.alerts.filter(isRecord) : [];
  const firing = alerts.filter((alert) => alert.status === undefined || alert.status === 'firing');
  const entries: Array<Datum | undefined> = [
    datum('commonLabels', data.commonLabels),
    ...Object.entries(commonAnnotations)
      .filter(([key]) => !(EXPLAINING as readonly string[]).includes(key))
      .map(([key, value]) => datum(key, value)),
    datum('externalURL', data.externalURL),
    datum('alerts_firing', firing.length),
    Number(data.truncatedAlerts) > 0 ? datum('truncatedAlerts', Number(data.truncatedAlerts)) : undefined,
  ];
  alerts.forEach((alert, index) => {
    if (!firing.includes(alert)) return;
    const own = Object.fromEntries(Object.entries(recordOf(alert.annotations)).filter(([key, value]) => commonAnnotations[key] !== value));
    const value: Payload = { labels: alert.labels ?? {} };
    if (Object.keys(own).length > 0) value.annotations = own;
    for (const key of ['startsAt', 'generatorURL', ...perAlert]) {
      if (alert[key] !== undefined && alert[key] !== null && alert[key] !== '') value[key] = alert[key];
    }
    entries.push(datum(`alerts[${index}]`, value, 'json'));
  });
  return details(entries);
}
