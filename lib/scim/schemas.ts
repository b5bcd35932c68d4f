// SCIM's shapes as the OpenAPI document shows them (RFC 7643 core User and Group, RFC 7644 ListResponse,
// PatchOp and Error). Requests are read leniently (lib/scim/user-state.ts, groups.ts) because identity
// providers send attributes of their own; these describe what the service answers.
import * as z from 'zod';
import { lazySchema, lazyStrictObject } from '../lazy-schema';
import { documentNames } from '../http/document-names';

const meta = lazyStrictObject(() => ({
  resourceType: z.string(),
  created: z.string(),
  lastModified: z.string(),
  location: z.string(),
  version: z.string(),
}));

const multiValued = lazyStrictObject(() => ({ value: z.string(), type: z.string(), primary: z.boolean() }));

export const ScimUser = lazyStrictObject(() => ({
  schemas: z.array(z.string()),
  id: z.string(),
  externalId: z.string().optional(),
  userName: z.string(),
  name: z.strictObject({ formatted: z.string(), givenName: z.string().optional(), familyName: z.string().optional() }),
  displayName: z.string(),
  active: z.boolean(),
  emails: z.array(multiValued),
  phoneNumbers: z.array(multiValued),
  meta,
}));

export const ScimGroup = lazyStrictObject(() => ({
  schemas: z.array(z.string()),
  id: z.string(),
  displayName: z.string(),
  members: z.array(z.strictObject({ value: z.string(), type: z.string(), display: z.string().optional() })).optional(),
  meta,
}));

export const ScimListResponse = lazyStrictObject(() => ({
  schemas: z.array(z.string()),
  totalResults: z.number().int(),
  startIndex: z.number().int(),
  itemsPerPage: z.number().int(),
  Resources: z.array(z.unknown()),
}));

/** SCIM's error body (RFC 7644 §3.12): every error under /scim/v2. */
export const ScimErrorBody = lazyStrictObject(() => ({
  schemas: z.array(z.string()),
  status: z.string(),
  scimType: z.string().optional(),
  detail: z.string(),
}));

/** Discovery documents (ServiceProviderConfig, ResourceTypes, Schemas): fixed JSON objects. */
export const ScimDocument = lazySchema(() => z.record(z.string(), z.unknown()));

/** The answers of the routes that Users and Groups share (lib/scim/routes.ts). */
export const ScimUserOrGroup = lazySchema(() => z.union([ScimUser, ScimGroup]));
export const ScimReadAnswer = lazySchema(() => z.union([ScimUser, ScimGroup, ScimDocument]));
export const ScimListOrDocument = lazySchema(() => z.union([ScimListResponse, ScimDocument]));

/** What a create, replace or PATCH reads (shown in the document; read leniently). */
export const ScimResourceInput = lazySchema(() => z.looseObject({ schemas: z.array(z.string()).optional() }));
export const ScimPatchInput = lazySchema(() =>
  z.looseObject({
    schemas: z.array(z.string()).optional(),
    Operations: z.array(z.looseObject({ op: z.string(), path: z.string().optional(), value: z.unknown().optional() })),
  }),
);

documentNames.add(ScimUser, { id: 'ScimUser' });
documentNames.add(ScimGroup, { id: 'ScimGroup' });
documentNames.add(ScimListResponse, { id: 'ScimListResponse' });
documentNames.add(ScimDocument, { id: 'ScimDocument' });
documentNames.add(ScimErrorBody, { id: 'ScimError' });
documentNames.add(ScimUserOrGroup, { id: 'ScimUserOrGroup' });
documentNames.add(ScimReadAnswer, { id: 'ScimReadAnswer' });
documentNames.add(ScimListOrDocument, { id: 'ScimListOrDocument' });
documentNames.add(ScimResourceInput, { id: 'ScimResourceInput' });
documentNames.add(ScimPatchInput, { id: 'ScimPatchInput' });
