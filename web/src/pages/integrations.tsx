// Integrations: the list with each one's inbound address (`<origin>/integration/<int_ id>`, the
// same origin as the console, locally and behind CloudFront) and a Copy button, a new integration,
// and one integration's settings with its recent incoming requests (the logs it owns,
// GET /log?owner_id=int_…) and whether each made an alert. A heartbeat integration (docs/api.md#heartbeats)
// takes its interval and grace in the form, and its page shows its state, last beat, next deadline
// and the curl line that sends a beat.
import { useState } from 'preact/hooks';
import { api, listAll, type Page } from '../api';
import { CheckboxField, CheckboxGroup, Form, saveOrCreate, SelectField, SubmitButton, TextField, useForm } from '../components/form';
import { Badge, CopyButton, ErrorList, Loading, Notice, PageTitle, useLoad } from '../components/ui';
import { useDirectory } from '../directory';
import { formatDateTime } from '../lib/format';
import { href, navigate, type PageProps } from '../router';
import type { IngestResult, Integration, IntegrationType, LogEntry, Router } from '../types';

type HeartbeatState = NonNullable<Integration['heartbeat']>;

const URGENCIES = ['critical', 'high', 'medium', 'low', 'silent'].map((u) => ({ value: u, label: u[0].toUpperCase() + u.slice(1) }));

export const inboundUrl = (integration: Pick<Integration, 'prefix_id'>) => `${window.location.origin}/integration/${integration.prefix_id}`;

function InboundUrl({ integration }: { integration: Integration }) {
  const url = inboundUrl(integration);
  return (
    <span class="inbound-url">
      <code>{url}</code> <CopyButton value={url} description={`Copy the inbound address of ${integration.name}`} />
    </span>
  );
}

export function IntegrationsPage() {
  const directory = useDirectory();
  const list = useLoad(() => listAll<Integration>('/api/v4/integrations'), []);
  return (
    <section>
      <PageTitle>Integrations</PageTitle>
      <p class="hint">Monitoring tools post to an integration's inbound address; no credentials are needed.</p>
      {list.error ? <ErrorList error={list.error} /> : null}
      {list.loading && !list.data ? (
        <Loading what="integrations" />
      ) : list.data?.length === 0 ? (
        <p>No integrations yet.</p>
      ) : (
        <table class="table">
          <caption class="visually-hidden">Integrations</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Urgency</th>
              <th scope="col">Enabled</th>
              <th scope="col">Inbound address</th>
            </tr>
          </thead>
          <tbody>
            {list.data?.map((integration) => (
              <tr key={integration.id} data-integration-id={integration.id}>
                <td>
                  <a href={href(`/integrations/${integration.id}`)}>{integration.name}</a>
                </td>
                <td>
                  {integration.integration_type?.name ?? '—'}
                  {integration.heartbeat && (
                    <>
                      {' '}
                      <Badge kind="heartbeat" value={integration.heartbeat.status} />
                    </>
                  )}
                </td>
                <td>
                  <Badge kind="urgency" value={integration.urgency} />
                </td>
                <td>{integration.enabled ? 'Yes' : 'No'}</td>
                <td>
                  <InboundUrl integration={integration} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {directory.isAdmin && <IntegrationForm />}
    </section>
  );
}

function IntegrationForm({ integration, onSaved }: { integration?: Integration; onSaved?: () => void }) {
  const directory = useDirectory();
  const types = useLoad(() => listAll<IntegrationType>('/api/v4/integration_types'), []);
  const [name, setName] = useState(integration?.name ?? '');
  const [typeId, setTypeId] = useState(integration?.integration_type_id ?? '');
  const [urgency, setUrgency] = useState<string>(integration?.urgency ?? 'high');
  const [enabled, setEnabled] = useState(integration?.enabled ?? true);
  const [teams, setTeams] = useState<string[]>(integration?.team_ids ?? []);
  const [people, setPeople] = useState<string[]>(integration?.account_user_ids ?? []);
  const [routerIds, setRouterIds] = useState<string[]>(integration?.router_ids ?? []);
  const [intervalSeconds, setIntervalSeconds] = useState(optionText(integration, 'interval_seconds', '300'));
  const [grace, setGrace] = useState(optionText(integration, 'grace_seconds', '0'));
  const slug = integration ? integration.integration_type?.slug : types.data?.find((t) => t.id === typeId)?.slug;
  const heartbeat = slug === HEARTBEAT;
  const routers = useLoad(() => listAll<Router>('/api/v4/routers'), []);
  const [saved, setSaved] = useState(false);
  const form = useForm();
  const title = integration ? 'Integration settings' : 'New integration';

  return (
    <section class="card" aria-labelledby="integration-form-title">
      <h2 id="integration-form-title">{title}</h2>
      {saved && <Notice kind="success">Saved.</Notice>}
      <Form
        form={form}
        label={title}
        onSubmit={async () => {
          setSaved(false);
          const body = {
            name,
            urgency,
            enabled,
            team_ids: teams,
            account_user_ids: people,
            router_ids: routerIds,
            ...(integration ? {} : { integration_type_id: typeId }),
            // Sent as typed: the API names the option when it is not a whole number in range.
            ...(heartbeat ? { options: { interval_seconds: intervalSeconds, grace_seconds: grace } } : {}),
          };
          const updated = await saveOrCreate<Integration>(form, {
            collection: '/api/v4/integrations',
            id: integration?.id,
            body,
            created: (created) => navigate(`/integrations/${created.id}`),
          });
          if (updated) {
            setSaved(true);
            onSaved?.();
          }
        }}
      >
        <TextField form={form} name="name" label="Name" value={name} onInput={setName} />
        {!integration && (
          <SelectField
            form={form}
            name="integration_type_id"
            label="Type"
            value={typeId}
            placeholder="Choose a type"
            options={(types.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
            onChange={setTypeId}
            hint={types.data?.find((t) => t.id === typeId)?.description}
          />
        )}
        {heartbeat && (
          <>
            <TextField
              form={form}
              name="options.interval_seconds"
              label="Beat at least every (seconds)"
              type="number"
              min={60}
              value={intervalSeconds}
              onInput={setIntervalSeconds}
              hint="At least 60. When no beat comes within this time plus the grace, an alert opens."
            />
            <TextField
              form={form}
              name="options.grace_seconds"
              label="Grace (seconds)"
              type="number"
              min={0}
              value={grace}
              onInput={setGrace}
              hint="Extra time allowed after the interval (0 for none)."
            />
          </>
        )}
        <SelectField form={form} name="urgency" label="Urgency of its alerts" value={urgency} options={URGENCIES} onChange={setUrgency} />
        <CheckboxField form={form} name="enabled" label="Enabled" checked={enabled} onChange={setEnabled} />
        <CheckboxGroup
          form={form}
          name="team_ids"
          legend="Send alerts to teams"
          options={directory.teams.map((t) => ({ value: t.id, label: t.name }))}
          values={teams}
          onChange={setTeams}
        />
        <CheckboxGroup
          form={form}
          name="router_ids"
          legend="Send alerts to routers"
          options={(routers.data ?? []).map((r) => ({ value: r.id, label: r.name }))}
          values={routerIds}
          onChange={setRouterIds}
          hint="A router's rules decide who gets each alert."
        />
        <CheckboxGroup
          form={form}
          name="account_user_ids"
          legend="Send alerts to people"
          options={directory.users.map((u) => ({ value: u.id, label: u.user.name }))}
          values={people}
          onChange={setPeople}
        />
        <SubmitButton form={form} label={integration ? 'Save integration' : 'Create integration'} busyLabel="Saving…" />
      </Form>
    </section>
  );
}

const HEARTBEAT = 'heartbeat';

/** An option's stored value as the form's text, or the default when it has none. */
function optionText(integration: Integration | undefined, name: string, fallback: string): string {
  const value = integration?.options[name];
  return typeof value === 'number' || typeof value === 'string' ? String(value) : fallback;
}

function beatOutcome(outcome: string): string {
  if (outcome === 'resolved') return 'Beat received: resolved the missed alert';
  return outcome === 'recorded' ? 'Beat received' : `Beat received (${outcome})`;
}

function outcomeOf(log: LogEntry): { madeAlert: boolean; text: string; alertIds: string[] } {
  const result = log.data?.result as IngestResult | undefined;
  const alertIds = result?.alert_ids ?? [];
  const actions = result?.actions ?? [];
  const created = actions.some((a) => a.action === 'create' && a.outcome === 'created');
  if (log.status === 'pending') return { madeAlert: false, text: 'Waiting to be processed', alertIds };
  if (log.status === 'failed') return { madeAlert: false, text: `Failed: ${log.reason ?? 'unknown reason'}`, alertIds };
  if (log.status === 'ignored') return { madeAlert: false, text: `Ignored: ${log.reason ?? ''}`.trim(), alertIds };
  const texts = actions.map((a) => {
    if (a.action === 'beat') return beatOutcome(a.outcome);
    if (a.action === 'create')
      return a.outcome === 'created'
        ? 'Created an alert'
        : a.outcome === 'deduplicated'
          ? 'Counted on an existing alert'
          : `Create: ${a.outcome}`;
    if (a.outcome === 'no_alert') return `${a.action[0].toUpperCase()}${a.action.slice(1)}: no matching alert`;
    return `${a.action[0].toUpperCase()}${a.action.slice(1)}: ${a.outcome}`;
  });
  return { madeAlert: created, text: texts.join('; ') || 'Processed', alertIds };
}

const HEARTBEAT_STATUS: Record<HeartbeatState['status'], string> = {
  waiting: 'Waiting for the first beat',
  up: 'Up',
  missed: 'Missed',
};

/** A heartbeat's state, and the line a job runs to send a beat (no credentials, body ignored). */
function HeartbeatCard({ integration, heartbeat }: { integration: Integration; heartbeat: HeartbeatState }) {
  const curl = `curl -fsS -X POST ${inboundUrl(integration)}`;
  const every = integration.options.interval_seconds;
  return (
    <section class="card" aria-labelledby="heartbeat-title">
      <h2 id="heartbeat-title">Heartbeat</h2>
      <dl class="fields">
        <dt>Status</dt>
        <dd>
          <Badge kind="heartbeat" value={heartbeat.status} /> <span>{HEARTBEAT_STATUS[heartbeat.status]}</span>
        </dd>
        <dt>Last beat</dt>
        <dd>
          {heartbeat.last_beat_at ? <time dateTime={heartbeat.last_beat_at}>{formatDateTime(heartbeat.last_beat_at)}</time> : 'None yet'}
        </dd>
        <dt>{heartbeat.status === 'missed' ? 'Was due' : 'Next beat due by'}</dt>
        <dd>
          <time dateTime={heartbeat.next_due_at}>{formatDateTime(heartbeat.next_due_at)}</time>
        </dd>
      </dl>
      <p>
        Send a beat from the job that must prove it is alive{typeof every === 'number' ? `, at least every ${every} seconds` : ''} (a GET
        works too; no credentials needed):
      </p>
      <p class="inbound-url">
        <code>{curl}</code> <CopyButton value={curl} description={`Copy the command that sends a beat to ${integration.name}`} />
      </p>
    </section>
  );
}

export function IntegrationPage({ params }: PageProps) {
  const directory = useDirectory();
  const loaded = useLoad(() => api.get<Integration>(`/api/v4/integrations/${encodeURIComponent(params.id)}`), [params.id]);
  const logs = useLoad(
    async () => {
      const integration = loaded.data;
      if (!integration) return null;
      return api.get<Page<LogEntry>>('/log', { owner_id: integration.prefix_id, sort: '-createdAt', limit: 20 });
    },
    [loaded.data?.prefix_id],
    5000,
  );
  if (loaded.loading && !loaded.data) return <Loading what="the integration" />;
  if (!loaded.data) return <ErrorList error={loaded.error} />;
  const integration = loaded.data;
  return (
    <section>
      <p class="breadcrumb">
        <a href={href('/integrations')}>Integrations</a>
      </p>
      <PageTitle>{integration.name}</PageTitle>
      <dl class="fields card">
        <dt>Inbound address</dt>
        <dd>
          <InboundUrl integration={integration} />
        </dd>
        <dt>Type</dt>
        <dd>{integration.integration_type?.name ?? '—'}</dd>
        <dt>Created</dt>
        <dd>{formatDateTime(integration.created_at)}</dd>
      </dl>
      {integration.heartbeat && <HeartbeatCard integration={integration} heartbeat={integration.heartbeat} />}
      <section class="card" aria-labelledby="incoming-title">
        <h2 id="incoming-title">Recent incoming requests</h2>
        {logs.error ? <ErrorList error={logs.error} /> : null}
        {!logs.data ? (
          <Loading what="incoming requests" />
        ) : logs.data.data.length === 0 ? (
          <p>No requests received yet. Post a test payload to the inbound address.</p>
        ) : (
          <table class="table">
            <caption class="visually-hidden">Recent incoming requests, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Received</th>
                <th scope="col">Made an alert</th>
                <th scope="col">Outcome</th>
                <th scope="col">Alert</th>
              </tr>
            </thead>
            <tbody>
              {logs.data.data.map((log) => {
                const outcome = outcomeOf(log);
                return (
                  <tr key={log.id}>
                    <td>
                      <time dateTime={log.createdAt}>{formatDateTime(log.createdAt)}</time>
                    </td>
                    <td>{outcome.madeAlert ? 'Yes' : 'No'}</td>
                    <td>{outcome.text}</td>
                    <td>
                      {outcome.alertIds.map((id) => (
                        <a key={id} href={href(`/alerts/${id}`)}>
                          Open alert
                        </a>
                      ))}
                      {outcome.alertIds.length === 0 && '—'}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>
      {directory.isAdmin && <IntegrationForm key={integration.id} integration={integration} onSaved={() => void loaded.reload()} />}
    </section>
  );
}
