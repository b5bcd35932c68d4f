// Receivers named by router rules, as the routing worker checks them: teams that exist and the account
// user of a `usr_` id, remembered in-process for a few seconds, so a burst of alerts through one rule
// costs no read per alert. Only answers that found something are kept (a team created a moment ago
// is found at once); a team or person removed since may still be assigned for those seconds, and
// escalation then finds nobody to page there, as for any receiver deleted after routing.
import type { AccountUserRecord } from '../account-users/records';
import { getAccountUserOfUser } from '../account-users/store';
import { TtlCache } from '../ttl-cache';
import { existing } from '../store/entity-store';

const CACHE_MS = 5_000;
const teams = new TtlCache<true>(() => CACHE_MS);
const users = new TtlCache<AccountUserRecord>(() => CACHE_MS);

/** Which of the team ids name teams of the account (in the order given). */
export async function teamsExist(accountId: string, ids: readonly string[]): Promise<boolean[]> {
  const unknown = [...new Set(ids.filter((id) => !teams.get(`${accountId}|${id}`)))];
  if (unknown.length > 0) {
    const found = await existing(
      accountId,
      unknown.map((id) => ['team', id] as const),
    );
    unknown.forEach((id, i) => found[i] && teams.set(`${accountId}|${id}`, true));
  }
  return ids.map((id) => Boolean(teams.get(`${accountId}|${id}`)));
}

/** The person's account user in this account, or null. */
export async function accountUserOfUser(accountId: string, userId: string): Promise<AccountUserRecord | null> {
  const key = `${accountId}|${userId}`;
  const cached = users.get(key);
  if (cached) return cached;
  const found = await getAccountUserOfUser(userId, accountId);
  if (found) users.set(key, found);
  return found;
}
