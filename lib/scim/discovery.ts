// SCIM's discovery documents (RFC 7644 §4, RFC 7643 §5–7), which Okta and Microsoft Entra ID read
// before provisioning: what this service supports (PATCH yes; bulk, sort, ETags and password changes
// no; filters of one equality), its two resource types, and the attributes it keeps of each.
import { NotFound } from '../http/errors';
import { GROUP_SCHEMA, SCIM_BASE_PATH, USER_SCHEMA } from './represent';
import { MAX_RESULTS } from './users';

const SCHEMA_OF = (id: string) => `urn:ietf:params:scim:schemas:core:2.0:${id}`;

export function serviceProviderConfig(base: string) {
  return {
    schemas: [SCHEMA_OF('ServiceProviderConfig')],
    documentationUri: `${base}/api/v4/openapi.json`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'SCIM token',
        description: 'Authorization: Bearer <token>, a token made with POST /api/v4/scim_tokens',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}${SCIM_BASE_PATH}/ServiceProviderConfig` },
  };
}

const resourceTypes = (base: string) => [
  {
    schemas: [SCHEMA_OF('ResourceType')],
    id: 'User',
    name: 'User',
    endpoint: '/Users',
    description: 'An account user',
    schema: USER_SCHEMA,
    meta: { resourceType: 'ResourceType', location: `${base}${SCIM_BASE_PATH}/ResourceTypes/User` },
  },
  {
    schemas: [SCHEMA_OF('ResourceType')],
    id: 'Group',
    name: 'Group',
    endpoint: '/Groups',
    description: 'A team',
    schema: GROUP_SCHEMA,
    meta: { resourceType: 'ResourceType', location: `${base}${SCIM_BASE_PATH}/ResourceTypes/Group` },
  },
];

const attribute = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  type: 'string',
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

const multi = (name: string, types: string[]) =>
  attribute(name, {
    type: 'complex',
    multiValued: true,
    subAttributes: [attribute('value'), attribute('type', { canonicalValues: types }), attribute('primary', { type: 'boolean' })],
  });

const schemaDocuments = (base: string) => [
  {
    schemas: [SCHEMA_OF('Schema')],
    id: USER_SCHEMA,
    name: 'User',
    description: 'An account user: userName is the primary e-mail address',
    attributes: [
      attribute('userName', { required: true, uniqueness: 'server' }),
      attribute('externalId', { caseExact: true }),
      attribute('name', {
        type: 'complex',
        subAttributes: [attribute('formatted'), attribute('givenName'), attribute('familyName')],
      }),
      attribute('displayName'),
      attribute('active', { type: 'boolean' }),
      multi('emails', ['work', 'other']),
      multi('phoneNumbers', ['mobile', 'work']),
    ],
    meta: { resourceType: 'Schema', location: `${base}${SCIM_BASE_PATH}/Schemas/${USER_SCHEMA}` },
  },
  {
    schemas: [SCHEMA_OF('Schema')],
    id: GROUP_SCHEMA,
    name: 'Group',
    description: 'A team: displayName is its name, members its members',
    attributes: [
      attribute('displayName', { required: true, uniqueness: 'server' }),
      attribute('members', {
        type: 'complex',
        multiValued: true,
        subAttributes: [attribute('value', { mutability: 'immutable' }), attribute('display', { mutability: 'readOnly' })],
      }),
    ],
    meta: { resourceType: 'Schema', location: `${base}${SCIM_BASE_PATH}/Schemas/${GROUP_SCHEMA}` },
  },
];

const listOf = (resources: unknown[]) => ({
  schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
  totalResults: resources.length,
  startIndex: 1,
  itemsPerPage: resources.length,
  Resources: resources,
});

export const resourceTypesList = (base: string) => listOf(resourceTypes(base));
export const schemasList = (base: string) => listOf(schemaDocuments(base));

/** One resource type (`/ResourceTypes/User`) or schema (`/Schemas/<urn>`) by its id. */
export function discoveryEntry(list: 'ResourceTypes' | 'Schemas', id: string, base: string) {
  const entries: { id: string }[] = list === 'ResourceTypes' ? resourceTypes(base) : schemaDocuments(base);
  const found = entries.find((entry) => entry.id.toLowerCase() === id.toLowerCase());
  if (!found) throw new NotFound(`No ${list === 'ResourceTypes' ? 'resource type' : 'schema'} ${id}`);
  return found;
}
