// Notification rules (/api/v4/notification_rules, docs/api.md#notification-rules): which channels a
// page uses and when, per person (the account user's notification_rule_id). The list and a new rule
// (its YAML starts from GET /router/default-template/notification), one rule's page with the YAML
// editor and who uses it; and the pieces the Users and Profile pages show: a rule's content and the
// picker that sets a person's rule (PUT /api/v4/account_users/:id {notification_rule_id}; admins for
// anyone, everyone for themselves).
import { useState } from 'preact/hooks';
import { api, listAll } from '../api';
import { CheckboxField, Form, saveOrCreate, SelectField, SubmitButton, TextField, useForm } from '../components/form';
import { ErrorList, Loading, Notice, PageTitle, useLoad } from '../components/ui';
import { YamlField } from '../components/yaml-field';
import { useDirectory } from '../directory';
import { formatDateTime } from '../lib/format';
import { href, navigate, type PageProps } from '../router';
import type { AccountUser, NotificationRule, NotificationRuleExplanation } from '../types';
import { CHANNEL_NAMES } from './notifications';

export const listNotificationRules = () => listAll<NotificationRule>('/api/v4/notification_rules');

/** A rule's name, state and YAML as stored. */
export function RuleContent({ rule }: { rule: NotificationRule }) {
  return (
    <div class="rule-content" data-rule-id={rule.id}>
      <p>
        <a href={href(`/notification-rules/${rule.id}`)}>{rule.name}</a>
        {rule.enabled ? '' : ' (disabled: the default channels are used)'}
      </p>
      {rule.rules && rule.rules.trim() ? (
        <pre class="yaml" role="region" aria-label={`Rules of ${rule.name}`} tabIndex={0}>
          {rule.rules}
        </pre>
      ) : (
        <p>No rules: the default channels are used.</p>
      )}
    </div>
  );
}

/** Sets which rule an account user's pages follow, or none (their default channels). */
export function RulePicker({
  accountUser,
  rules,
  onSaved,
  label = 'Notification rule',
}: {
  accountUser: AccountUser;
  rules: NotificationRule[];
  onSaved: () => void;
  label?: string;
}) {
  const [ruleId, setRuleId] = useState(accountUser.notification_rule_id ?? '');
  const [saved, setSaved] = useState(false);
  const form = useForm();
  return (
    <Form
      form={form}
      label={`Choose the ${label.toLowerCase()}`}
      class="form form-inline"
      onSubmit={async () => {
        setSaved(false);
        const ok = await form.submit(async () => {
          await api.put(`/api/v4/account_users/${accountUser.id}`, { notification_rule_id: ruleId || null });
        });
        if (ok) {
          setSaved(true);
          onSaved();
        }
      }}
    >
      <SelectField
        form={form}
        name="notification_rule_id"
        label={label}
        value={ruleId}
        options={[{ value: '', label: 'None: default channels' }, ...rules.map((r) => ({ value: r.id, label: r.name }))]}
        onChange={setRuleId}
      />
      <SubmitButton form={form} label="Use this rule" busyLabel="Saving…" />
      {saved && <Notice kind="success">Saved.</Notice>}
    </Form>
  );
}

export function NotificationRulesPage() {
  const directory = useDirectory();
  const list = useLoad(listNotificationRules, []);
  const rules = list.data ?? [];
  const usersOf = (rule: NotificationRule) =>
    directory.users
      .filter((u) => u.notification_rule_id === rule.id)
      .map((u) => u.user.name)
      .join(', ') || '—';
  return (
    <section>
      <p class="breadcrumb">
        <a href={href('/users')}>Users</a>
      </p>
      <PageTitle>Notification rules</PageTitle>
      <p class="hint">
        A notification rule picks the channels of a person's pages and when each goes out. People without one are paged on their default
        channels.
      </p>
      {list.error ? <ErrorList error={list.error} /> : null}
      {list.loading && !list.data ? (
        <Loading what="notification rules" />
      ) : rules.length === 0 ? (
        <p>No notification rules yet.</p>
      ) : (
        <table class="table">
          <caption class="visually-hidden">Notification rules</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Enabled</th>
              <th scope="col">Used by</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {rules.map((rule) => (
              <tr key={rule.id}>
                <td>
                  <a href={href(`/notification-rules/${rule.id}`)}>{rule.name}</a>
                </td>
                <td>{rule.enabled ? 'Yes' : 'No'}</td>
                <td>{usersOf(rule)}</td>
                <td>
                  <time dateTime={rule.updated_at}>{formatDateTime(rule.updated_at)}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {directory.isAdmin && <NotificationRuleForm />}
    </section>
  );
}

function NotificationRuleForm({ rule, onSaved }: { rule?: NotificationRule; onSaved?: () => void }) {
  const template = useLoad(async () => (rule ? '' : await api.get<string>('/router/default-template/notification').catch(() => '')), []);
  const [name, setName] = useState(rule?.name ?? '');
  const [enabled, setEnabled] = useState(rule?.enabled ?? true);
  const [rules, setRules] = useState<string | null>(rule ? (rule.rules ?? '') : null);
  const [saved, setSaved] = useState(false);
  const form = useForm();
  const title = rule ? 'Rule settings' : 'New notification rule';
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
          const body = { name, enabled, rules: yaml.trim() ? yaml : null };
          const updated = await saveOrCreate<NotificationRule>(form, {
            collection: '/api/v4/notification_rules',
            id: rule?.id,
            body,
            created: (created) => navigate(`/notification-rules/${created.id}`),
          });
          if (updated) {
            setSaved(true);
            onSaved?.();
          }
        }}
      >
        <TextField form={form} name="name" label="Name" value={name} onInput={setName} />
        <CheckboxField form={form} name="enabled" label="Enabled" checked={enabled} onChange={setEnabled} />
        <YamlField
          form={form}
          name="rules"
          label="Rules (YAML)"
          value={yaml}
          onInput={setRules}
          hint="Each rule: match (the alert), actions (notify with channels and timeout, repeat, ignore), types (default alert.open). Channels: push, email, sms, voice, slack, whatsapp."
        />
        <SubmitButton form={form} label={rule ? 'Save rule' : 'Create rule'} busyLabel="Saving…" />
      </Form>
    </section>
  );
}

export function NotificationRulePage({ params }: PageProps) {
  const directory = useDirectory();
  const loaded = useLoad(() => api.get<NotificationRule>(`/api/v4/notification_rules/${encodeURIComponent(params.id)}`), [params.id]);
  if (loaded.loading && !loaded.data) return <Loading what="the notification rule" />;
  if (!loaded.data) return <ErrorList error={loaded.error} />;
  const rule = loaded.data;
  const users = directory.users.filter((u) => u.notification_rule_id === rule.id);
  return (
    <section>
      <p class="breadcrumb">
        <a href={href('/notification-rules')}>Notification rules</a>
      </p>
      <PageTitle>{rule.name}</PageTitle>
      <dl class="fields card">
        <dt>Enabled</dt>
        <dd>{rule.enabled ? 'Yes' : 'No'}</dd>
        <dt>Used by</dt>
        <dd>
          {users.length
            ? users.map((u, i) => (
                <span key={u.id}>
                  {i > 0 && ', '}
                  <a href={href(`/users/${u.id}`)}>{u.user.name}</a>
                </span>
              ))
            : 'Nobody yet'}
        </dd>
        <dt>Updated</dt>
        <dd>{formatDateTime(rule.updated_at)}</dd>
      </dl>
      {directory.isAdmin ? (
        <NotificationRuleForm key={rule.updated_at} rule={rule} onSaved={() => void loaded.reload()} />
      ) : (
        <section class="card" aria-labelledby="rule-content">
          <h2 id="rule-content">Rules</h2>
          <RuleContent rule={rule} />
        </section>
      )}
      <RuleTrial rule={rule} />
    </section>
  );
}

const URGENCIES = ['critical', 'high', 'medium', 'low', 'silent'].map((u) => ({ value: u, label: u[0].toUpperCase() + u.slice(1) }));
const PAGE_TYPES = [
  { value: 'alert.open', label: 'A page (alert.open)' },
  { value: 'alert.handoff', label: 'A hand-off (alert.handoff)' },
];

function offsetText(ms: number): string {
  if (ms === 0) return 'At once';
  const seconds = Math.round(ms / 1000);
  return seconds % 60 === 0 ? `After ${seconds / 60} min` : `After ${seconds} s`;
}

const REASONS: Record<NotificationRuleExplanation['plan']['reason'], string> = {
  matched: 'matched',
  ignored: 'matched and ignores the page: nothing is sent',
  no_rule: 'no rule: the default channels are used',
  disabled: 'the rule is disabled: the default channels are used',
  no_match: 'no rule matched: the default channels are used',
  invalid_rules: 'the saved rules cannot be read: the default channels are used',
};

const sentence = (text: string) => text[0].toUpperCase() + text.slice(1);

/** POST /api/v4/notification_rules/:id/test: which channels a page would use and when. */
function RuleTrial({ rule }: { rule: NotificationRule }) {
  const directory = useDirectory();
  const [urgency, setUrgency] = useState('critical');
  const [type, setType] = useState('alert.open');
  const [person, setPerson] = useState(directory.me?.id ?? '');
  const [result, setResult] = useState<NotificationRuleExplanation | null>(null);
  const form = useForm();
  return (
    <section class="card" aria-labelledby="rule-trial-title">
      <h2 id="rule-trial-title">Try the rule</h2>
      <p class="hint">Explains which channels a page would use and when, for a sample alert. Nothing is sent.</p>
      <Form
        form={form}
        label="Try the rule"
        onSubmit={() =>
          form.submit(async () => {
            setResult(
              await api.post<NotificationRuleExplanation>(`/api/v4/notification_rules/${rule.id}/test`, {
                alert: { title: 'Sample alert', urgency },
                type,
                ...(person ? { account_user_id: person } : {}),
              }),
            );
          })
        }
      >
        <SelectField form={form} name="alert.urgency" label="Alert urgency" value={urgency} options={URGENCIES} onChange={setUrgency} />
        <SelectField form={form} name="type" label="Event" value={type} options={PAGE_TYPES} onChange={setType} />
        <SelectField
          form={form}
          name="account_user_id"
          label="Person (their default channels apply when the rule does not)"
          value={person}
          options={directory.users.map((u) => ({ value: u.id, label: u.user.name }))}
          onChange={setPerson}
        />
        <SubmitButton form={form} label="Try it" busyLabel="Trying…" />
      </Form>
      <div class="dry-run-result" aria-live="polite">
        {result && (
          <section aria-labelledby="rule-trial-result">
            <h3 id="rule-trial-result">Result</h3>
            <p class="outcome" data-reason={result.plan.reason}>
              {sentence(
                `${result.matched_rule ? `Rule ${result.matched_rule.index + 1} ` : ''}${REASONS[result.plan.reason] ?? result.plan.reason}.`,
              )}
            </p>
            {result.plan.steps.length > 0 && (
              <ol class="trial-steps">
                {result.plan.steps.map((step, i) => (
                  <li key={i}>
                    {offsetText(step.at_offset_ms)}: {step.channels.map((c) => CHANNEL_NAMES[c] ?? c).join(', ')}
                  </li>
                ))}
              </ol>
            )}
          </section>
        )}
      </div>
    </section>
  );
}
