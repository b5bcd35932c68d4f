// POST /api/v4/scim_tokens (admins, docs/api.md#scim-provisioning): a new SCIM token of the account;
// its secret is answered once and stored only as a hash.
import { generateToken, sha256 } from '../auth/passwords';
import { requireAdmin } from '../auth/permissions';
import { nowIso } from '../clock';
import { Conflict } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { newId } from '../ids';
import type { ScimTokenRecord } from './records';
import { createScimTokenInput } from './token-schemas';
import { insertScimToken } from './token-store';

/** SCIM secrets say what they are, so that one pasted where an API key belongs is recognised in logs and support. */
const SECRET_PREFIX = 'scim_';

export async function createScimToken(principal: Principal, body: unknown): Promise<{ record: ScimTokenRecord; token: string }> {
  requireAdmin(principal, 'create SCIM tokens');
  const input = parseInput(createScimTokenInput, body);
  const token = `${SECRET_PREFIX}${generateToken()}`;
  const now = nowIso();
  const record: ScimTokenRecord = {
    id: newId(),
    account_id: principal.accountId,
    name: input.name,
    created_by: principal.accountUserId,
    token_hash: sha256(token),
    created_at: now,
    updated_at: now,
    version: 1,
  };
  if (!(await insertScimToken(record))) throw new Conflict('that SCIM token is already in use; try again');
  return { record, token };
}
