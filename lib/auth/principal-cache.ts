// Resolved credentials, cached in-process so an authenticated request costs no extra round trip
// (lib/ttl-cache.ts explains the TTL). Every write that could change an answer drops the affected
// entries here: a revoked key, changed roles, a deleted account user, a changed password.
import { config } from '../config';
import { onEnvironmentChange } from '../dependencies';
import type { Principal } from '../http/principal';
import { TtlCache } from '../ttl-cache';

export const principals = new TtlCache<Principal>(() => config().AUTH_CACHE_SECONDS * 1000);
// Principals resolved from another table (the local runtime, tests) mean nothing here.
onEnvironmentChange(() => principals.clear());

/** Forget cached principals of an account user (roles changed, user deleted). */
export function forgetAccountUser(accountUserId: string): void {
  principals.deleteWhere((p) => p.accountUserId === accountUserId);
}

/** Forget every cached principal of a person, in every account (their password changed). */
export function forgetUser(userId: string): void {
  principals.deleteWhere((p) => p.userId === userId);
}

/** Forget cached principals of a revoked key. */
export function forgetApiKey(keyId: string): void {
  principals.deleteWhere((p) => p.apiKeyId === keyId);
}

/** Forget cached principals of a revoked SCIM token. */
export function forgetScimToken(tokenId: string): void {
  principals.deleteWhere((p) => p.scimTokenId === tokenId);
}
