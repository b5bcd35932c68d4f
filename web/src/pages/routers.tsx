// Routers: the account's routers (GET /api/v4/routers) with their default receivers, enabling and
// disabling one from the list, a new router (its YAML starts from GET /router/default-template/router),
// and one router's page: its settings with the YAML editor (the API's messages, line and column, next
// to the field), and the dry run (POST /api/v4/routers/:id/test, docs/api.md#routers): which rule
// matched and why, the rules tried before it, the actions with their values and the assignments.
import { useState } from 'preact/hooks';
import { api, ApiError, listAll, messagesOf } from '../api';
import {
  CheckboxField,
  Form,
  SelectField,
  SubmitButton,
  TextArea,
  TextField,
  useForm,
  saveOrCreate,
  type Option,
} from '../components/form';
import { Badge, ErrorList, Loading, Notice, PageTitle, useLoad } from '../components/ui';
import { YamlField } from '../components/yaml-field';
import { useDirectory, type Directory } from '../directory';
import { formatDateTime } from '../lib/format';
import { href, navigate, type PageProps } from '../router';
import type { ConditionReport, PlannedAction, PlannedAssignment, Router, RouterExplanation } from '../types';

const URGENCIES = ['critical', 'high', 'medium', 'low', 'silent'].map((u) => ({ value: u, label: u[0].toUpperCase() + u.slice(1) }));

/** The default receivers of a router, by name. */
function receiversText(router: Router, directory: Directory, routers: Router[]): string {
  const names: string[] = [];
  if (router.default_receiver_team_id) names.push(`Team ${directory.teamName(router.default_receiver_team_id)}`);
  if (router.default_receiver_account_user_id) names.push(directory.personName(router.default_receiver_account_user_id));
  if (router.default_receiver_router_id) {
    const other = routers.find((r) => r.id === router.default_receiver_router_id);
    names.push(`Router ${other ? other.name : router.default_receiver_router_id.slice(-6)}`);
  }
  return names.join(', ') || '—';
}

function ruleCount(yaml: string | null): string {
  if (!yaml || !yaml.trim()) return 'None: everything goes to the default receivers';
  // Rules in block style start `- match:`; other layouts are not counted here.
  const count = (yaml.match(/^\s*-\s+match\s*:/gm) ?? []).length;
  if (count === 0) return 'YAML rules';
  return count === 1 ? '1 rule' : `${count} rules`;
}

export function RoutersPage() {
  const directory = useDirectory();
  const list = useLoad(() => listAll<Router>('/api/v4/routers'), []);
  const [message, setMessage] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  const routers = list.data ?? [];

  const toggle = async (router: Router) => {
    setMessage(null);
    try {
      await api.put(`/api/v4/routers/${router.id}`, { enabled: !router.enabled });
      setMessage({ kind: 'success', text: `${router.name} ${router.enabled ? 'disabled' : 'enabled'}.` });
      await list.reload();
    } catch (error) {
      setMessage({ kind: 'error', text: messagesOf(error).join(' ') });
    }
  };

  return (
    <section>
      <PageTitle>Routers</PageTitle>
      <p class="hint">
        A router's YAML rules decide who gets an alert and change it on the way (title, urgency, tags, incident). Integrations and alerts
        name routers as their destination.
      </p>
      <div class="live" aria-live="polite">
        {message?.kind === 'success' && <Notice kind="success">{message.text}</Notice>}
      </div>
      {message?.kind === 'error' && <Notice kind="error">{message.text}</Notice>}
      {list.error ? <ErrorList error={list.error} /> : null}
      {list.loading && !list.data ? (
        <Loading what="routers" />
      ) : routers.length === 0 ? (
        <p>No routers yet.</p>
      ) : (
        <table class="table">
          <caption class="visually-hidden">Routers</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Name</th>
              <th scope="col">Enabled</th>
              <th scope="col">Rules</th>
              <th scope="col">Default receivers</th>
              <th scope="col">Updated</th>
              {directory.isAdmin && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {routers.map((router) => (
              <tr key={router.id} data-router-id={router.id}>
                <td class="tiny-id">#{router.tiny_id}</td>
                <td>
                  <a id={`router-name-${router.id}`} href={href(`/routers/${router.id}`)}>
                    {router.name}
                  </a>
                </td>
                <td>{router.enabled ? 'Yes' : 'No'}</td>
                <td>{ruleCount(router.rules)}</td>
                <td>{receiversText(router, directory, routers)}</td>
                <td>
                  <time dateTime={router.updated_at}>{formatDateTime(router.updated_at)}</time>
                </td>
                {directory.isAdmin && (
                  <td>
                    <button
                      type="button"
                      class="button button-small"
                      aria-describedby={`router-name-${router.id}`}
                      onClick={() => void toggle(router)}
                    >
                      {router.enabled ? 'Disable' : 'Enable'}
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {directory.isAdmin && list.data && <RouterForm routers={routers} />}
    </section>
  );
}

/** A receiver field's options: "None", then the account's teams, people or other routers. */
const none = (options: Option[]) => [{ value: '', label: 'None' }, ...options];

function RouterForm({ router, routers, onSaved }: { router?: Router; routers: Router[]; onSaved?: () => void }) {
  const directory = useDirectory();
  const template = useLoad(async () => (router ? '' : await api.get<string>('/router/default-template/router').catch(() => '')), []);
  const [name, setName] = useState(router?.name ?? '');
  const [enabled, setEnabled] = useState(router?.enabled ?? true);
  const [rules, setRules] = useState<string | null>(router ? (router.rules ?? '') : null);
  const [team, setTeam] = useState(router?.default_receiver_team_id ?? '');
  const [person, setPerson] = useState(router?.default_receiver_account_user_id ?? '');
  const [next, setNext] = useState(router?.default_receiver_router_id ?? '');
  const [saved, setSaved] = useState(false);
  const form = useForm();
  const title = router ? 'Router settings' : 'New router';
  const yaml = rules ?? template.data ?? '';

  return (
    <section class="card" aria-labelledby={`${form.id}-title`}>
      <h2 id={`${form.id}-title`}>{title}</h2>
      {saved && <Notice kind="success">Saved.</Notice>}
      <Form
        form={form}
        label={title}
        onSubmit={async () => {
          setSaved(false);
          const body = {
            name,
            enabled,
            rules: yaml.trim() ? yaml : null,
            default_receiver_team_id: team || null,
            default_receiver_account_user_id: person || null,
            default_receiver_router_id: next || null,
          };
          const updated = await saveOrCreate<Router>(form, {
            collection: '/api/v4/routers',
            id: router?.id,
            body,
            created: (created) => navigate(`/routers/${created.id}`),
          });
          if (updated) {
            setSaved(true);
            onSaved?.();
          }
        }}
      >
        <TextField form={form} name="name" label="Name" value={name} onInput={setName} />
        <CheckboxField
          form={form}
          name="enabled"
          label="Enabled (a disabled router sends everything to its default receivers)"
          checked={enabled}
          onChange={setEnabled}
        />
        <YamlField
          form={form}
          name="rules"
          label="Rules (YAML)"
          value={yaml}
          onInput={setRules}
          hint="Rules are tried top-down; the first whose match holds runs its actions (assign, ignore, setval, incident, aggregate, stakeholder, automation). Receivers are prefix ids: tem_, usr_, rtr_, skd_."
        />
        <fieldset class="field">
          <legend>Default receivers</legend>
          <p class="hint">Who gets the alert when no rule matches or the rule assigns nobody. At least one.</p>
          <SelectField
            form={form}
            name="default_receiver_team_id"
            label="Default team"
            value={team}
            options={none(directory.teams.map((t) => ({ value: t.id, label: t.name })))}
            onChange={setTeam}
          />
          <SelectField
            form={form}
            name="default_receiver_account_user_id"
            label="Default person"
            value={person}
            options={none(directory.users.map((u) => ({ value: u.id, label: u.user.name })))}
            onChange={setPerson}
          />
          <SelectField
            form={form}
            name="default_receiver_router_id"
            label="Default router"
            value={next}
            options={none(routers.filter((r) => r.id !== router?.id).map((r) => ({ value: r.id, label: r.name })))}
            onChange={setNext}
          />
        </fieldset>
        <SubmitButton form={form} label={router ? 'Save router' : 'Create router'} busyLabel="Saving…" />
      </Form>
    </section>
  );
}

export function RouterPage({ params }: PageProps) {
  const directory = useDirectory();
  const loaded = useLoad(async () => {
    const [router, routers] = await Promise.all([
      api.get<Router>(`/api/v4/routers/${encodeURIComponent(params.id)}`),
      listAll<Router>('/api/v4/routers'),
    ]);
    return { router, routers };
  }, [params.id]);
  const [deleteError, setDeleteError] = useState<unknown>(null);
  if (loaded.loading && !loaded.data) return <Loading what="the router" />;
  if (!loaded.data) return <ErrorList error={loaded.error} />;
  const { router, routers } = loaded.data;

  const remove = async () => {
    if (!window.confirm(`Delete the router ${router.name}? Integrations and alerts that name it will skip it.`)) return;
    try {
      await api.delete(`/api/v4/routers/${router.id}`);
      navigate('/routers');
    } catch (error) {
      setDeleteError(error);
    }
  };

  return (
    <section>
      <p class="breadcrumb">
        <a href={href('/routers')}>Routers</a>
      </p>
      <PageTitle>{router.name}</PageTitle>
      <dl class="fields card">
        <dt>Id</dt>
        <dd>
          <code>{router.prefix_id}</code> (#{router.tiny_id})
        </dd>
        <dt>Enabled</dt>
        <dd>{router.enabled ? 'Yes' : 'No'}</dd>
        <dt>Default receivers</dt>
        <dd>{receiversText(router, directory, routers)}</dd>
        <dt>Updated</dt>
        <dd>{formatDateTime(router.updated_at)}</dd>
      </dl>
      {directory.isAdmin ? (
        <RouterForm key={router.updated_at} router={router} routers={routers} onSaved={() => void loaded.reload()} />
      ) : (
        <section class="card" aria-labelledby="router-rules">
          <h2 id="router-rules">Rules</h2>
          {router.rules ? (
            <pre class="yaml" role="region" aria-label={`Rules of ${router.name}`} tabIndex={0}>
              {router.rules}
            </pre>
          ) : (
            <p>No rules: everything goes to the default receivers.</p>
          )}
        </section>
      )}
      <DryRun router={router} routers={routers} />
      {directory.isAdmin && (
        <section class="card" aria-labelledby="router-delete">
          <h2 id="router-delete">Delete</h2>
          <ErrorList error={deleteError} />
          <button type="button" class="button" onClick={() => void remove()}>
            Delete router
          </button>
        </section>
      )}
    </section>
  );
}

const show = (value: unknown): string => (value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value));

function receiverName(id: string, directory: Directory, routers: Router[]): string {
  if (id.startsWith('rtr_')) {
    const found = routers.find((r) => r.prefix_id === id);
    return found ? `Router ${found.name}` : id;
  }
  if (id.startsWith('tem_')) return `Team ${directory.nameOfPrefixed(id)}`;
  if (id.startsWith('skd_')) return `Schedule ${id}`;
  return directory.nameOfPrefixed(id);
}

function delayText(ms: number | undefined): string {
  if (!ms) return 'at once';
  const seconds = Math.round(ms / 1000);
  if (seconds % 3600 === 0) return `after ${seconds / 3600} h`;
  if (seconds % 60 === 0) return `after ${seconds / 60} min`;
  return `after ${seconds} s`;
}

function outcomeText(result: RouterExplanation): string {
  const plan = result.plan;
  if (plan.outcome === 'disabled') return 'The router is disabled: the alert goes to its default receivers.';
  if (plan.outcome === 'invalid_rules') return 'The saved rules cannot be read: the alert goes to the default receivers.';
  if (plan.outcome === 'no_match') return 'No rule matched: the alert goes to the default receivers.';
  const rule = `Rule ${(plan.rule_index ?? 0) + 1} matched`;
  if (plan.suppressed) return `${rule}: the alert is suppressed (nobody is assigned).`;
  if (plan.used_default) return `${rule}, but it assigns nobody: the alert goes to the default receivers.`;
  return `${rule}.`;
}

function Conditions({ conditions, caption }: { conditions: ConditionReport[]; caption: string }) {
  return (
    <table class="table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Condition</th>
          <th scope="col">Expected</th>
          <th scope="col">Saw</th>
          <th scope="col">Held</th>
        </tr>
      </thead>
      <tbody>
        {conditions.map((c, i) => (
          <tr key={i}>
            <td>
              <code>{c.condition}</code>
            </td>
            <td>
              <code>{show(c.expected)}</code>
            </td>
            <td>
              <code>{show(c.saw)}</code>
            </td>
            <td class={c.held ? 'held-yes' : 'held-no'}>{c.held ? 'Yes' : 'No'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function DryRun({ router, routers }: { router: Router; routers: Router[] }) {
  const directory = useDirectory();
  const [title, setTitle] = useState('Disk full on db-1');
  const [urgency, setUrgency] = useState('high');
  const [description, setDescription] = useState('');
  const [tags, setTags] = useState('');
  const [logData, setLogData] = useState('');
  const [result, setResult] = useState<RouterExplanation | null>(null);
  const form = useForm();

  const run = async () => {
    let data: unknown = undefined;
    if (logData.trim()) {
      try {
        data = JSON.parse(logData);
      } catch {
        await form.submit(() => Promise.reject(new ApiError(422, ['log.data is not valid JSON'])));
        return;
      }
    }
    await form.submit(async () => {
      const tagList = tags
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean);
      const explanation = await api.post<RouterExplanation>(`/api/v4/routers/${router.id}/test`, {
        alert: { title, urgency, description, tag_list: tagList, tags: tagList },
        ...(data !== undefined ? { log: { data } } : {}),
      });
      setResult(explanation);
    });
  };

  const plan = result?.plan;
  return (
    <section class="card" aria-labelledby="dry-run-title">
      <h2 id="dry-run-title">Dry run</h2>
      <p class="hint">Routes a sample alert through the saved rules and explains the decision. Nothing is changed and nobody is paged.</p>
      <Form form={form} label="Dry run" onSubmit={run}>
        <TextField form={form} name="alert.title" label="Alert title" value={title} onInput={setTitle} />
        <SelectField form={form} name="alert.urgency" label="Alert urgency" value={urgency} options={URGENCIES} onChange={setUrgency} />
        <TextField form={form} name="alert.description" label="Alert description" value={description} onInput={setDescription} />
        <TextField form={form} name="alert.tags" label="Alert tags (comma-separated)" value={tags} onInput={setTags} />
        <TextArea
          form={form}
          name="log.data"
          label="Request body (JSON, optional)"
          value={logData}
          onInput={setLogData}
          rows={3}
          hint="What the monitoring tool posted, for rules that read log.data."
        />
        <SubmitButton form={form} label="Run dry run" busyLabel="Running…" />
      </Form>
      <div class="dry-run-result" aria-live="polite">
        {result && plan && (
          <section aria-labelledby="dry-run-outcome">
            <h3 id="dry-run-outcome">Result</h3>
            <p class="outcome" data-outcome={plan.outcome} data-rule-index={plan.rule_index ?? ''}>
              {outcomeText(result)}
            </p>
            {result.matched_rule && (
              <Conditions conditions={result.matched_rule.conditions} caption={`Why rule ${result.matched_rule.index + 1} matched`} />
            )}
            {result.tried.length > 0 && (
              <>
                <h4>Rules tried before</h4>
                <ul class="tried">
                  {result.tried.map((t) => (
                    <li key={t.index}>
                      Rule {t.index + 1} did not match
                      {t.failed_condition && (
                        <>
                          : <code>{t.failed_condition.condition}</code> expected <code>{show(t.failed_condition.expected)}</code>, saw{' '}
                          <code>{show(t.failed_condition.saw)}</code>
                        </>
                      )}
                    </li>
                  ))}
                </ul>
              </>
            )}
            <h4>Actions</h4>
            {plan.actions.length === 0 ? (
              <p>None.</p>
            ) : (
              <ol class="plan-actions">
                {plan.actions.map((action, i) => {
                  const { type, ...rest } = action as PlannedAction;
                  const receivers = type === 'assign' && Array.isArray(rest.receivers) ? (rest.receivers as string[]) : null;
                  return (
                    <li key={i}>
                      <strong>{type}</strong>{' '}
                      {receivers ? (
                        `${receivers.map((r) => receiverName(r, directory, routers)).join(', ')} ${delayText(rest.delay_ms as number | undefined)}`
                      ) : Object.keys(rest).length > 0 ? (
                        <code>{JSON.stringify(rest)}</code>
                      ) : null}
                    </li>
                  );
                })}
              </ol>
            )}
            <h4>Assignments</h4>
            {plan.assignments.length === 0 ? (
              <p>{plan.suppressed ? 'Nobody: the alert is suppressed.' : 'Nobody.'}</p>
            ) : (
              <ul class="plan-assignments">
                {(plan.assignments as PlannedAssignment[]).map((a, i) => (
                  <li key={i}>
                    {receiverName(a.receiver, directory, routers)} {delayText(a.delay_ms)}
                    {plan.used_default ? ' (default receiver)' : ''}
                  </li>
                ))}
              </ul>
            )}
            {Object.keys(plan.alert_changes ?? {}).length > 0 && (
              <>
                <h4>Changes to the alert</h4>
                <dl class="fields">
                  {Object.entries(plan.alert_changes).map(([key, value]) => (
                    <div key={key} class="contents">
                      <dt>{key}</dt>
                      <dd>
                        <code>{show(value)}</code>
                      </dd>
                    </div>
                  ))}
                </dl>
              </>
            )}
            {plan.warnings.length > 0 && (
              <Notice kind="info">
                {plan.warnings.map((w) => (
                  <p key={w}>Warning: {w}</p>
                ))}
              </Notice>
            )}
            {!router.enabled && <Badge kind="tag" value="disabled" />}
          </section>
        )}
      </div>
    </section>
  );
}
