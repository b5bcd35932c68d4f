// Escalation policies (docs/api.md#escalation-policies): the list, a new one, and one policy's layers, repeat and
// reassignment (PUT /api/v4/escalation_policies/:id).
import { useState } from 'preact/hooks';
import { api, listAll } from '../api';
import { CheckboxGroup, Form, SelectField, SubmitButton, TextField, useForm, saveOrCreate, type FormState } from '../components/form';
import { ErrorList, Loading, Notice, PageTitle, useLoad } from '../components/ui';
import { useDirectory } from '../directory';
import { href, navigate, type PageProps } from '../router';
import type { EscalationPolicy } from '../types';

/** A layer of the form: a new one has no id yet. */
type Layer = Omit<EscalationPolicy['escalation_layers'][number], 'id'> & { id?: string };

const describeLayers = (layers: Layer[]) =>
  layers
    .slice()
    .sort((a, b) => a.layer - b.layer)
    .map((l) => `Layer ${l.layer}: ${l.timeout} ${l.timeout_unit === 'hours' ? 'h' : 'min'}`)
    .join(' → ') || '—';

export function EscalationPoliciesPage() {
  const directory = useDirectory();
  const list = useLoad(() => listAll<EscalationPolicy>('/api/v4/escalation_policies'), []);
  return (
    <section>
      <PageTitle>Escalation policies</PageTitle>
      {list.error ? <ErrorList error={list.error} /> : null}
      {list.loading && !list.data ? (
        <Loading what="escalation policies" />
      ) : list.data?.length === 0 ? (
        <p>No escalation policies yet. Creating a team also creates its policy.</p>
      ) : (
        <table class="table">
          <caption class="visually-hidden">Escalation policies</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Layers and timeouts</th>
              <th scope="col">Repeats</th>
              <th scope="col">Used by</th>
            </tr>
          </thead>
          <tbody>
            {list.data?.map((policy) => (
              <tr key={policy.id}>
                <td>
                  <a href={href(`/escalation-policies/${policy.id}`)}>{policy.name}</a>
                </td>
                <td>{describeLayers(policy.escalation_layers)}</td>
                <td>{policy.repeat}</td>
                <td>
                  {directory.teams
                    .filter((t) => t.escalation_policy_id === policy.id)
                    .map((t) => t.name)
                    .join(', ') || '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {directory.isAdmin && <PolicyForm />}
    </section>
  );
}

function LayerRow({
  form,
  index,
  layer,
  onChange,
  onRemove,
}: {
  form: FormState;
  index: number;
  layer: Layer;
  onChange: (l: Layer) => void;
  onRemove?: () => void;
}) {
  return (
    <fieldset class="layer-row">
      <legend>Layer {layer.layer}</legend>
      <TextField
        form={form}
        name={`escalation_layers[${index}].timeout`}
        label={`Layer ${layer.layer} timeout`}
        type="number"
        min={1}
        value={String(layer.timeout)}
        onInput={(v) => onChange({ ...layer, timeout: v === '' ? (NaN as number) : Number(v) })}
      />
      <SelectField
        form={form}
        name={`escalation_layers[${index}].timeout_unit`}
        label={`Layer ${layer.layer} unit`}
        value={layer.timeout_unit}
        options={[
          { value: 'minutes', label: 'minutes' },
          { value: 'hours', label: 'hours' },
        ]}
        onChange={(v) => onChange({ ...layer, timeout_unit: v as Layer['timeout_unit'] })}
      />
      {onRemove && (
        <button type="button" class="button button-small" onClick={onRemove}>
          Remove layer {layer.layer}
        </button>
      )}
    </fieldset>
  );
}

function PolicyForm({ policy, onSaved }: { policy?: EscalationPolicy; onSaved?: () => void }) {
  const directory = useDirectory();
  const [name, setName] = useState(policy?.name ?? '');
  const [repeat, setRepeat] = useState(String(policy?.repeat ?? 0));
  const [layers, setLayers] = useState<Layer[]>(
    policy?.escalation_layers.slice().sort((a, b) => a.layer - b.layer) ?? [{ layer: 1, timeout: 5, timeout_unit: 'minutes' }],
  );
  const [teams, setTeams] = useState<string[]>(policy?.reassign_team_ids ?? []);
  const [people, setPeople] = useState<string[]>(policy?.reassign_account_user_ids ?? []);
  const [saved, setSaved] = useState(false);
  const form = useForm();
  const title = policy ? 'Policy settings' : 'New escalation policy';

  return (
    <section class="card" aria-labelledby="policy-form-title">
      <h2 id="policy-form-title">{title}</h2>
      {saved && <Notice kind="success">Saved.</Notice>}
      <Form
        form={form}
        label={title}
        onSubmit={async () => {
          setSaved(false);
          const body = {
            name,
            repeat: Number(repeat),
            escalation_layers: layers.map((l, i) => ({
              layer: i + 1,
              timeout: Number.isNaN(l.timeout) ? null : l.timeout,
              timeout_unit: l.timeout_unit,
            })),
            reassign_team_ids: teams,
            reassign_account_user_ids: people,
          };
          const updated = await saveOrCreate<EscalationPolicy>(form, {
            collection: '/api/v4/escalation_policies',
            id: policy?.id,
            body,
            created: (created) => navigate(`/escalation-policies/${created.id}`),
          });
          if (updated) {
            setSaved(true);
            onSaved?.();
          }
        }}
      >
        <TextField form={form} name="name" label="Name" value={name} onInput={setName} />
        {layers.map((layer, i) => (
          <LayerRow
            key={i}
            form={form}
            index={i}
            layer={{ ...layer, layer: i + 1 }}
            onChange={(l) => setLayers(layers.map((x, j) => (j === i ? l : x)))}
            onRemove={layers.length > 1 ? () => setLayers(layers.filter((_, j) => j !== i)) : undefined}
          />
        ))}
        <p>
          <button
            type="button"
            class="button button-small"
            onClick={() => setLayers([...layers, { layer: layers.length + 1, timeout: 5, timeout_unit: 'minutes' }])}
          >
            Add layer
          </button>
        </p>
        <SelectField
          form={form}
          name="repeat"
          label="Run the layers again"
          value={repeat}
          options={[0, 1, 2, 3].map((n) => ({ value: String(n), label: n === 0 ? 'Never' : `${n} more time${n > 1 ? 's' : ''}` }))}
          onChange={setRepeat}
        />
        <CheckboxGroup
          form={form}
          name="reassign_team_ids"
          legend="Then reassign to teams"
          options={directory.teams.map((t) => ({ value: t.id, label: t.name }))}
          values={teams}
          onChange={setTeams}
        />
        <CheckboxGroup
          form={form}
          name="reassign_account_user_ids"
          legend="Then reassign to people"
          options={directory.users.map((u) => ({ value: u.id, label: u.user.name }))}
          values={people}
          onChange={setPeople}
        />
        <SubmitButton form={form} label={policy ? 'Save policy' : 'Create policy'} busyLabel="Saving…" />
      </Form>
    </section>
  );
}

export function EscalationPolicyPage({ params }: PageProps) {
  const directory = useDirectory();
  const loaded = useLoad(() => api.get<EscalationPolicy>(`/api/v4/escalation_policies/${encodeURIComponent(params.id)}`), [params.id]);
  if (loaded.loading && !loaded.data) return <Loading what="the escalation policy" />;
  if (!loaded.data) return <ErrorList error={loaded.error} />;
  const policy = loaded.data;
  return (
    <section>
      <p class="breadcrumb">
        <a href={href('/escalation-policies')}>Escalation policies</a>
      </p>
      <PageTitle>{policy.name}</PageTitle>
      <p>{describeLayers(policy.escalation_layers)}</p>
      {directory.isAdmin ? <PolicyForm key={policy.id} policy={policy} onSaved={() => void loaded.reload()} /> : null}
    </section>
  );
}
