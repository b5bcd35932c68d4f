// Import (admins): an import from Opsgenie, PagerDuty or Grafana OnCall (POST /api/v4/imports,
// docs/api.md#imports). A dry run unless the box is unticked; the key is sent for this run only and
// the form forgets it once the run is over. The report shows what was planned or done by action, the
// on-call proof of every schedule (the differences where there are any), what has no equivalent here,
// and each integration's old and new address with a copy button.
import { useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { CheckboxField, Form, SelectField, SubmitButton, TextField, useForm } from '../components/form';
import { CopyButton, Notice, PageTitle } from '../components/ui';
import { plural } from '../lib/format';
import type { ImportReport } from '../types';

const SOURCES = [
  { value: 'opsgenie', label: 'Opsgenie' },
  { value: 'pagerduty', label: 'PagerDuty' },
  { value: 'grafana-oncall', label: 'Grafana OnCall' },
];

const URL_HINTS: Record<string, string> = {
  opsgenie: 'Leave empty for https://api.opsgenie.com; EU accounts: https://api.eu.opsgenie.com.',
  pagerduty: 'Leave empty for https://api.pagerduty.com; EU accounts: https://api.eu.pagerduty.com.',
  'grafana-oncall': "Required: the stack's OnCall API URL from OnCall's settings page.",
};

const KEY_HINTS: Record<string, string> = {
  opsgenie: 'An API key with read access (Settings → API key management).',
  pagerduty: 'A read-only REST API key (Integrations → API Access Keys).',
  'grafana-oncall': 'An OnCall API token.',
};

const ACTIONS = ['create', 'update', 'link', 'delete', 'keep'] as const;

/** API Gateway gives up on the answer after 29 s; the import itself goes on to its end. */
const STILL_RUNNING =
  'The import is taking longer than the 29 seconds the API waits for an answer; it goes on in the background. A dry run shows how far it has come (everything "keep" once it is done); a run that writes is refused until the first has finished, then it is safe: it updates what the first made and creates no duplicates.';

export function ImportPage() {
  const [source, setSource] = useState('opsgenie');
  const [apiKey, setApiKey] = useState('');
  const [apiUrl, setApiUrl] = useState('');
  const [dryRun, setDryRun] = useState(true);
  const [from, setFrom] = useState('');
  const [report, setReport] = useState<ImportReport | null>(null);
  const form = useForm();

  const run = async () => {
    setReport(null);
    const body = {
      source,
      api_key: apiKey,
      dry_run: dryRun,
      ...(apiUrl.trim() ? { api_url: apiUrl.trim() } : {}),
      // A datetime-local value carries no offset: the API reads it as UTC, as the label says.
      ...(from ? { from } : {}),
    };
    const done = await form.submit(async () => {
      try {
        setReport(await api.post<ImportReport>('/api/v4/imports', body));
      } catch (error) {
        if (error instanceof ApiError && error.status === 504) throw new ApiError(504, [STILL_RUNNING]);
        throw error;
      }
    });
    // The key is for this run only: the page does not keep it once the run has answered.
    if (done) setApiKey('');
  };

  return (
    <section aria-labelledby="import-title">
      <PageTitle>
        <span id="import-title">Import</span>
      </PageTitle>
      <p class="hint">
        Bring people, teams, schedules, escalation policies and integrations from Opsgenie, PagerDuty or Grafana OnCall, then compare who is
        on call here with the source over the next 28 days. The key is used for this run only and never stored. Running an import again is
        safe: it updates what it made and creates no duplicates.
      </p>
      <section class="card" aria-labelledby={`${form.id}-title`}>
        <h2 id={`${form.id}-title`}>Run an import</h2>
        <Form form={form} label="Run an import" onSubmit={run}>
          <SelectField form={form} name="source" label="Source" value={source} options={SOURCES} onChange={setSource} />
          <TextField
            form={form}
            name="api_key"
            label="API key"
            type="password"
            autoComplete="off"
            value={apiKey}
            onInput={setApiKey}
            hint={KEY_HINTS[source]}
          />
          <TextField
            form={form}
            name="api_url"
            label="API URL"
            type="url"
            autoComplete="off"
            value={apiUrl}
            onInput={setApiUrl}
            hint={URL_HINTS[source]}
          />
          <TextField
            form={form}
            name="from"
            label="Compare the on-call from (UTC)"
            type="datetime-local"
            value={from}
            onInput={setFrom}
            hint="The proof covers 28 days from here. Leave empty for now."
          />
          <CheckboxField
            form={form}
            name="dry_run"
            label="Dry run: show the plan and write nothing"
            checked={dryRun}
            onChange={setDryRun}
          />
          <SubmitButton form={form} label="Run" busyLabel="Running…" />
        </Form>
        {form.busy && (
          <div class="import-progress" role="status">
            <progress aria-label="Import in progress" />
            <span>
              Reading {SOURCES.find((s) => s.value === source)?.label} and {dryRun ? 'planning' : 'importing'}, then comparing the on-call.
              A large account takes minutes.
            </span>
          </div>
        )}
      </section>
      {report && <Report report={report} />}
    </section>
  );
}

/** The URL a sender is given: the new address's first word ("https://… with GenieKey the same key (or …)"). */
const addressOf = (text: string) => (/^https?:\/\//.test(text) ? text.split(' ')[0] : text);

function Report({ report }: { report: ImportReport }) {
  const counts = ACTIONS.map((action) => [action, report.plan.filter((entry) => entry.action === action).length] as const).filter(
    ([, count]) => count > 0,
  );
  const nameOf = SOURCES.find((s) => s.value === report.source)?.label ?? report.source;
  return (
    <section class="card import-report" aria-labelledby="import-report-title">
      <h2 id="import-report-title">{report.dry_run ? `Plan from ${nameOf} (dry run: nothing written)` : `Imported from ${nameOf}`}</h2>
      {report.proven ? (
        <Notice kind="success">Every schedule's on-call matches {nameOf}'s.</Notice>
      ) : (
        <Notice kind="error">On-call differs: see the schedules below.</Notice>
      )}
      <h3>By action</h3>
      <ul class="import-counts">
        {counts.map(([action, count]) => (
          <li key={action} data-action={action}>
            <strong>{count}</strong> {action}
          </li>
        ))}
      </ul>
      <details>
        <summary>Every entry of the plan ({plural(report.plan.length, 'entry', 'entries')})</summary>
        <table class="table">
          <caption class="visually-hidden">The plan</caption>
          <thead>
            <tr>
              <th scope="col">Action</th>
              <th scope="col">Kind</th>
              <th scope="col">Name</th>
              <th scope="col">Detail</th>
            </tr>
          </thead>
          <tbody>
            {report.plan.map((entry, i) => (
              <tr key={`${entry.kind}-${entry.source_id}-${i}`}>
                <td>{entry.action}</td>
                <td>{entry.kind}</td>
                <td>{entry.name}</td>
                <td>{entry.detail ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>

      <h3>On-call proof</h3>
      <ul class="import-proofs">
        {report.proofs.map((proof) => (
          <li key={proof.schedule_source_id} data-schedule={proof.name}>
            <strong>{proof.name}</strong>{' '}
            {proof.differences.length === 0 ? (
              <span class="proof proof-same">on-call matches</span>
            ) : (
              <span class="proof proof-differs">on-call differs ({proof.differences.length})</span>
            )}{' '}
            <span class="hint">
              {proof.hand_offs} hand-offs compared, {proof.from.slice(0, 10)} to {proof.to.slice(0, 10)}
            </span>
            {proof.differences.length > 0 && (
              <ul class="proof-differences">
                {proof.differences.map((d) => (
                  <li key={d.start}>
                    <time dateTime={d.start}>{d.start}</time> – <time dateTime={d.end}>{d.end}</time>: here {d.ours.join(', ') || 'nobody'};
                    there {d.theirs.join(', ') || 'nobody'}
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>

      <h3>Not imported, or imported in part</h3>
      {report.unsupported.length === 0 ? (
        <p>Everything read has an equivalent here.</p>
      ) : (
        <ul class="import-unsupported">
          {report.unsupported.map((item) => (
            <li key={`${item.kind}-${item.source_id}`}>
              {item.kind} <strong>{item.name}</strong>: {item.reason}
            </li>
          ))}
        </ul>
      )}

      <h3>Integrations</h3>
      {report.integrations.length === 0 ? (
        <p>No integrations.</p>
      ) : (
        <table class="table import-integrations">
          <caption class="visually-hidden">Integrations: old address and new address</caption>
          <thead>
            <tr>
              <th scope="col">Integration</th>
              <th scope="col">Old address</th>
              <th scope="col">New address</th>
            </tr>
          </thead>
          <tbody>
            {report.integrations.map((integration) => (
              <tr key={integration.name}>
                <td>{integration.name}</td>
                <td>
                  <code>{integration.old_address ?? '(none given)'}</code>
                </td>
                <td>
                  {integration.new_address ? (
                    <>
                      <code>{integration.new_address}</code>{' '}
                      <CopyButton value={addressOf(integration.new_address)} description={`Copy the new address of ${integration.name}`} />
                    </>
                  ) : (
                    <span class="hint">Made by the real run</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
