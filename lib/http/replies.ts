// The answers a handler gives, typed by status so the route's declaration can check them
// (lib/http/route-contract.ts ReplyOf).
import type { EmptyReply, JsonReply } from './route-contract';

export const ok = <Body>(body: Body): JsonReply<200, Body> => ({ status: 200, body });
export const created = <Body>(body: Body): JsonReply<201, Body> => ({ status: 201, body });
export const accepted = <Body>(body: Body): JsonReply<202, Body> => ({ status: 202, body });
export const noContent = (): EmptyReply<204> => ({ status: 204 });
