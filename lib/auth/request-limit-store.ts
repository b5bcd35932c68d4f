// Keys of the API's request-limit buckets (lib/auth/request-limits.ts; lib/store/ACCESS-PATTERNS.md).
// Each is a GCRA bucket item (lib/store/gcra-bucket.ts: {tat, expires_at}); an absent item is a full
// bucket. An account's buckets share its partition; a source address has one of its own.
//   per account       A#<account>#RATE / ACCOUNT
//   per API key       A#<account>#RATE / KEY#<key id>
//   per person        A#<account>#RATE / SESSION#<account user id>   (every login token of one person in one account)
//   per address       IP#<source address>#RATE / BUCKET             (the public sign-in routes)
import type { BucketKey } from '../store/gcra-bucket';

export const accountBucketKey = (accountId: string): BucketKey => ({ pk: `A#${accountId}#RATE`, sk: 'ACCOUNT' });

export const apiKeyBucketKey = (accountId: string, apiKeyId: string): BucketKey => ({ pk: `A#${accountId}#RATE`, sk: `KEY#${apiKeyId}` });

export const sessionBucketKey = (accountId: string, accountUserId: string): BucketKey => ({
  pk: `A#${accountId}#RATE`,
  sk: `SESSION#${accountUserId}`,
});

export const sourceBucketKey = (address: string): BucketKey => ({ pk: `IP#${address}#RATE`, sk: 'BUCKET' });
