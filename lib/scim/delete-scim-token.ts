// DELETE /api/v4/scim_tokens/:id (admins): revokes a SCIM token; it stops working at once in this
// process (lib/auth/principal-cache.ts), and in others within the cache's lifetime.
import { forgetScimToken } from '../auth/principal-cache';
import type { Principal } from '../http/principal';
import { findScimToken } from './read-scim-tokens';
import { removeScimToken } from './token-store';

export async function deleteScimToken(principal: Principal, rawId: string): Promise<void> {
  const record = await findScimToken(principal, rawId);
  await removeScimToken(record);
  forgetScimToken(record.id);
}
