// Input schemas of escalation policies (docs/api.md#escalation-policies). Layers arrive as `escalation_layers` or, as
// Rails nested attributes, `escalation_layers_attributes` (entries with `_destroy` set are dropped).
import * as z from 'zod';
import { lazyObject, lazySchema, lazyStrictObject } from '../lazy-schema';
import { Invalid } from '../http/errors';
import { boolish, idList, intish, metaInput, requiredText } from '../http/fields';
import { newId } from '../ids';
import { TIMEOUT_UNITS, type EscalationLayerRecord } from './records';
import { instant, jsonObject, prefixIdOf, ulid } from '../http/response-fields';
import { documentNames } from '../http/document-names';

const layerInput = lazyObject(() => ({
  id: z.string().optional(),
  layer: intish.pipe(z.number().int().min(1)).optional(),
  timeout: intish.pipe(z.number().int().min(1)),
  timeout_unit: z.enum(TIMEOUT_UNITS).optional(),
  _destroy: boolish.optional(),
}));

const layersInput = lazySchema(() =>
  z.preprocess(
    // Form encoding with indexes (`escalation_layers[0][timeout]`) may arrive as an object keyed by index.
    (value) => (value && typeof value === 'object' && !Array.isArray(value) ? Object.values(value) : value),
    z.array(layerInput),
  ),
);

const repeat = lazySchema(() => intish.pipe(z.number().int().min(0).max(3)));

const fields = () => ({
  repeat: repeat.optional(),
  reassign_team_ids: idList.optional(),
  reassign_account_user_ids: idList.optional(),
  escalation_layers: layersInput.optional(),
  escalation_layers_attributes: layersInput.optional(),
  meta: metaInput.optional(),
});

export const createEscalationPolicyInput = lazyObject(() => ({ name: requiredText, ...fields() }));
export const updateEscalationPolicyInput = lazyObject(() => ({ name: requiredText.optional(), ...fields() }));

export type LayerInput = z.infer<typeof layerInput>;

/** Layers as sent, numbered by position when no number is given; ids kept for numbers that stay. */
export function layersFrom(input: LayerInput[], field: string, previous: EscalationLayerRecord[] = []): EscalationLayerRecord[] {
  const kept = input.filter((entry) => !entry._destroy);
  const layers = kept.map((entry, index) => ({
    id: previous.find((p) => p.layer === (entry.layer ?? index + 1))?.id ?? newId(),
    layer: entry.layer ?? index + 1,
    timeout: entry.timeout,
    timeout_unit: entry.timeout_unit ?? 'minutes',
  }));
  const numbers = layers.map((l) => l.layer);
  const duplicate = numbers.find((n, i) => numbers.indexOf(n) !== i);
  if (duplicate !== undefined) throw new Invalid(`${field} lists layer ${duplicate} twice`);
  // A policy without layers would wake no one: every alert of its teams would be dropped at once.
  if (layers.length === 0) throw new Invalid(`${field} must have at least 1 entry`);
  return layers.sort((a, b) => a.layer - b.layer);
}

/** The layers a create or update sends, under either name, and the name it used. */
export function layerInputOf(input: { escalation_layers?: LayerInput[]; escalation_layers_attributes?: LayerInput[] }) {
  return {
    field: input.escalation_layers ? 'escalation_layers' : 'escalation_layers_attributes',
    layers: input.escalation_layers ?? input.escalation_layers_attributes,
  };
}

// ---- representations: what represent.ts returns, and the document shows ----

export const EscalationPolicyV4 = lazyStrictObject(() => ({
  id: ulid,
  prefix_id: prefixIdOf('escalationPolicy'),
  account_id: ulid,
  name: z.string(),
  repeat: z.number().int().min(0).max(3),
  reassign_team_ids: z.array(ulid),
  reassign_account_user_ids: z.array(ulid),
  escalation_layers: z.array(
    z.strictObject({ id: ulid, layer: z.number().int().min(1), timeout: z.number().int().min(1), timeout_unit: z.enum(TIMEOUT_UNITS) }),
  ),
  meta: jsonObject,
  created_at: instant,
  updated_at: instant,
}));

// The names the OpenAPI document gives these schemas (#/components/schemas/<name>).
documentNames.add(createEscalationPolicyInput, { id: 'EscalationPolicyCreateInput' });
documentNames.add(updateEscalationPolicyInput, { id: 'EscalationPolicyUpdateInput' });
documentNames.add(EscalationPolicyV4, { id: 'EscalationPolicyV4' });
