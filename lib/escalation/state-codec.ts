// How the escalation item stores its JSON (the engine's state, the outbox, deferred starts):
// raw DEFLATE over a preset dictionary of what that JSON is made of, behind a format byte.
//
// Why: DynamoDB bills every write of an item by its whole size per started KB, and the state item
// is written about three times a step (commit, release, sometimes a lease change). As plain JSON a
// paging step's item was ~2.4 KB (3 units a write); the effects repeat the alert id, the account
// users and a few dozen field names, which the dictionary turns into back-references, so the same
// item is ~0.7 KB (1 unit). docs/ARCHITECTURE.md, "Write budget per alert life".
//
// Items written before this hold the JSON as a string: read as it is, replaced by the next write.
// The dictionary is part of the stored format: changing it would make every stored item unreadable,
// so a better one needs a new format byte (and this file keeps decoding the old one).
import { deflateRawSync, inflateRawSync } from 'node:zlib';

const FORMAT_DEFLATE_V1 = 1;

// Shapes of lib/escalation/engine/types.ts with the ids left out, the rarest first: DEFLATE reaches
// the dictionary's end with the shortest distances, so what nearly every item holds comes last.
const DICTIONARY_V1 = Buffer.from(
  [
    '"layer_skipped","repeated","reassigned","exhausted","dropped","reopened","superseded","rejected","unreachable",',
    '"duplicate_failure","alert_handoff","alert_dropped","alert_rejected","handoff","reassign","superseded","exhausted",',
    '{"type":"notify","key":"","at":,"template":"alert_dropped","accountUserId":"","actorAccountUserId":null,"teamId":""}',
    '{"type":"set_alert_status","key":"/dropped","at":,"status":"dropped"}',
    '{"type":"account_user","accountUserId":""}',
    '{"key":"","targets":[{"type":"team","teamId":""}],"due_at":}',
    '"failover":1,"unreachable":true,"acknowledged","rejected","timed_out","stopped","resolved","sms","phone","slack"',
    '{"type":"close_workflow","key":"/a0/r0.l0//close","at":,"workflowId":"","assignmentId":"a0","accountUserId":"","status":"timed_out"},',
    '{"type":"log","key":"/v1/stopped","at":,"kind":"stopped","assignmentId":null,"detail":{"by":"acknowledged","assignment_ids":["a0"]}}',
    '{"type":"assignment_started","key":"/a0/start","at":,"assignmentId":"a0","target":{"type":"team","teamId":""},"origin":"route","parentAssignmentId":null},',
    '{"type":"log","key":"/a0/r0.l0/escalated","at":,"kind":"escalated","assignmentId":"a0","detail":{"round":0,"layer":1,"account_user_ids":[""]}},',
    '{"type":"open_workflow","key":"/a0/r0.l0//workflow","at":,"workflowId":"","assignmentId":"a0","teamId":"","accountUserId":"","round":0,"layer":1,"template":"alert_alert"},',
    '{"type":"page","key":"/a0/r0.l0//alert_alert/d0","at":,"workflowId":"","assignmentId":"a0","accountUserId":"","template":"alert_alert","delivery":0,"channels":["push","email"]},',
    '{"type":"schedule_timer","key":"/a0/r0.l0/timer","at":,"assignmentId":"a0","token":"a0/r0.l0","dueAt":}]',
    '{"schema":1,"alertId":"","version":1,"outcome":"escalating","epoch":0,"drops":0,"appliedStarts":["route:"],"assignments":[',
    '{"id":"a0","epoch":0,"target":{"type":"team","teamId":""},"origin":"route","parentId":null,"startedAt":,"status":"escalating",',
    '"step":{"key":"r0.l0","round":0,"layerIndex":0,"layer":1,"pagedAt":,"dueAt":,"token":"a0/r0.l0","workflows":[',
    '{"id":"","accountUserId":"","status":"open","template":"alert_alert","plan":[{"at_offset_ms":0,"channels":["push","email"]}],',
    '"delivered":1,"tried":["push","email"],"messages":2,"failed":[],"failovers":0}]},"round":0,"layerIndex":0,"reassigned":false}]}',
  ].join(''),
);

/** `value` as JSON, compressed, as the item stores it (a binary attribute). */
export function packJson(value: unknown): Uint8Array {
  const packed = deflateRawSync(JSON.stringify(value), { dictionary: DICTIONARY_V1 });
  return Buffer.concat([Buffer.of(FORMAT_DEFLATE_V1), packed]);
}

/** What packJson stored, or the plain JSON string an item written before it holds; undefined when absent. */
export function unpackJson<T>(stored: unknown): T | undefined {
  if (typeof stored === 'string') return JSON.parse(stored) as T;
  if (!(stored instanceof Uint8Array)) return undefined;
  if (stored[0] !== FORMAT_DEFLATE_V1) throw new Error(`escalation item: unknown stored format ${stored[0]}`);
  const json = inflateRawSync(stored.subarray(1), { dictionary: DICTIONARY_V1 }).toString('utf8');
  return JSON.parse(json) as T;
}
