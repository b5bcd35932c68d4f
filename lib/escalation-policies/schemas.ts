// Input schemas of escalation policies (contract §7). Layers arrive as `escalation_layers` or, as
// Rails nested attributes, `escalation_layers_attributes` (entries with `_destroy` set are dropped).
import * as z from 'zod';
import { boolish, idList, intish, requiredText } from '../http/fields';
import { metaInput } from '../teams/inputs';
import { TIMEOUT_UNITS } from './records';

const layerInput = z.object({
  id: z.string().optional(),
  layer: intish.pipe(z.number().int().min(1)).optional(),
  timeout: intish.pipe(z.number().int().min(1)),
  timeout_unit: z.enum(TIMEOUT_UNITS).optional(),
  _destroy: boolish.optional(),
});

const layersInput = z.preprocess(
  // Form encoding with indexes (`escalation_layers[0][timeout]`) may arrive as an object keyed by index.
  (value) => (value && typeof value === 'object' && !Array.isArray(value) ? Object.values(value) : value),
  z.array(layerInput),
);

const repeat = intish.pipe(z.number().int().min(0).max(3));

const fields = {
  repeat: repeat.optional(),
  reassign_team_ids: idList.optional(),
  reassign_account_user_ids: idList.optional(),
  escalation_layers: layersInput.optional(),
  escalation_layers_attributes: layersInput.optional(),
  meta: metaInput.optional(),
};

export const createEscalationPolicyInput = z.object({ name: requiredText, ...fields });
export const updateEscalationPolicyInput = z.object({ name: requiredText.optional(), ...fields });

export type LayerInput = z.infer<typeof layerInput>;
