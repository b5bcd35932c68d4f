// The one registry of entity kinds: the prefix of their prefix ids (docs/api.md#ids), the type name
// that names their partition in the table (`A#<account>#<TYPE>`, lib/store) when the account owns
// stored objects of that kind, and whether they get per-account tiny ids. lib/ids.ts and lib/store
// both read it; nothing else lists kinds.

export interface EntityInfo {
  /** `<prefix>_<ULID>`. */
  readonly prefix: string;
  /** Type name of the account partition that stores them; absent when not stored per account. */
  readonly type?: string;
  /** Objects get per-account tiny ids (1, 2, 3, …). */
  readonly tinyId?: boolean;
}

export const ENTITIES = {
  account: { prefix: 'acc' },
  accountUser: { prefix: 'acu', type: 'ACU' },
  alert: { prefix: 'alt', type: 'ALERT', tinyId: true },
  apiKey: { prefix: 'tkn', type: 'APIKEY' },
  attendee: { prefix: 'eat' },
  auditEvent: { prefix: 'aud', type: 'AUDIT' },
  automation: { prefix: 'atm', type: 'ATM' },
  broadcast: { prefix: 'brd', type: 'BRD', tinyId: true },
  comment: { prefix: 'cmt', type: 'CMT' },
  email: { prefix: 'eml' },
  escalationPolicy: { prefix: 'esc', type: 'ESC' },
  event: { prefix: 'evt', type: 'EVT', tinyId: true },
  exception: { prefix: 'exc' },
  integration: { prefix: 'int', type: 'INT', tinyId: true },
  integrationType: { prefix: 'itt' },
  log: { prefix: 'log', type: 'LOG' },
  maintenanceWindow: { prefix: 'mtw', type: 'MTW' },
  notification: { prefix: 'ntf', type: 'NTF' },
  notificationRule: { prefix: 'nrl', type: 'NRL' },
  phone: { prefix: 'phn' },
  response: { prefix: 'brr' },
  responseOption: { prefix: 'bro' },
  router: { prefix: 'rtr', type: 'RTR', tinyId: true },
  schedule: { prefix: 'skd', type: 'SKD', tinyId: true },
  scimToken: { prefix: 'sct', type: 'SCIMTOKEN' },
  stakeholder: { prefix: 'stk' },
  team: { prefix: 'tem', type: 'TEAM', tinyId: true },
  user: { prefix: 'usr' },
  workflow: { prefix: 'wkf', type: 'WKF' },
} as const satisfies Record<string, EntityInfo>;

export type EntityKind = keyof typeof ENTITIES;

/** Kinds whose objects the account stores in a partition of their own. */
export type StoredKind = { [K in EntityKind]: (typeof ENTITIES)[K] extends { type: string } ? K : never }[EntityKind];

/** The partition type names (`ALERT`, `TEAM`, …). */
export type EntityType = (typeof ENTITIES)[StoredKind]['type'];

export function typeOf(kind: StoredKind): EntityType {
  return ENTITIES[kind].type;
}

/** The stored type of a kind, or undefined when the account stores no objects of it. */
export function storedTypeOf(kind: EntityKind): EntityType | undefined {
  return (ENTITIES[kind] as EntityInfo).type as EntityType | undefined;
}
