// An issuer's discovery document (OpenID Connect Discovery 1.0, `<issuer>/.well-known/openid-configuration`),
// read when an admin saves the settings and checked: it must name the same issuer, and its
// authorization, token and keys endpoints must be URLs the service may call.
import { callIssuer, IssuerCallFailed, refusedScheme } from './issuer-calls';

export interface IssuerMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  token_endpoint_auth: 'client_secret_basic' | 'client_secret_post';
  id_token_algorithms: string[];
}

/** Asymmetric JWS algorithms an ID token may be signed with; `none` and the HMAC ones (keyed with the client secret) are not taken. */
export const ASYMMETRIC_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

const stripSlash = (url: string) => url.replace(/\/+$/, '');

function endpoint(document: Record<string, unknown>, field: string): string {
  const value = document[field];
  if (typeof value !== 'string' || !value) throw new IssuerCallFailed(`its discovery document has no ${field}`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new IssuerCallFailed(`its discovery document's ${field} is not a URL`);
  }
  const refused = refusedScheme(url);
  if (refused) throw new IssuerCallFailed(`its discovery document's ${field}: ${refused}`);
  return value;
}

function strings(document: Record<string, unknown>, field: string): string[] | null {
  const value = document[field];
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : null;
}

/** Reads and checks the issuer's discovery document; IssuerCallFailed says what is wrong. */
export async function discoverIssuer(issuer: string): Promise<IssuerMetadata> {
  const document = await callIssuer({ url: `${stripSlash(issuer)}/.well-known/openid-configuration` });
  const named = document.issuer;
  // The document's issuer must be the one asked for (Discovery 1.0 §4.3); a trailing slash typed by
  // the admin is forgiven, and the document's spelling is the one kept (ID tokens carry it as iss).
  if (typeof named !== 'string' || stripSlash(named) !== stripSlash(issuer)) {
    throw new IssuerCallFailed(`its discovery document names another issuer (${typeof named === 'string' ? named : 'none'})`);
  }
  const responseTypes = strings(document, 'response_types_supported');
  if (responseTypes && !responseTypes.some((type) => type.split(' ').includes('code'))) {
    throw new IssuerCallFailed('it does not support the authorization code flow (response_types_supported has no code)');
  }
  const methods = strings(document, 'code_challenge_methods_supported');
  if (methods && !methods.includes('S256'))
    throw new IssuerCallFailed('it does not support PKCE with S256 (code_challenge_methods_supported)');
  const authMethods = strings(document, 'token_endpoint_auth_methods_supported');
  // Absent, the default is client_secret_basic (Discovery 1.0 §3).
  const basic = !authMethods || authMethods.includes('client_secret_basic');
  if (!basic && !authMethods.includes('client_secret_post')) {
    throw new IssuerCallFailed('its token endpoint takes neither client_secret_basic nor client_secret_post');
  }
  const advertised = strings(document, 'id_token_signing_alg_values_supported') ?? ['RS256'];
  const algorithms = advertised.filter((alg) => ASYMMETRIC_ALGORITHMS.includes(alg));
  if (algorithms.length === 0)
    throw new IssuerCallFailed('it signs ID tokens with no asymmetric algorithm (id_token_signing_alg_values_supported)');
  return {
    issuer: named,
    authorization_endpoint: endpoint(document, 'authorization_endpoint'),
    token_endpoint: endpoint(document, 'token_endpoint'),
    jwks_uri: endpoint(document, 'jwks_uri'),
    token_endpoint_auth: basic ? 'client_secret_basic' : 'client_secret_post',
    id_token_algorithms: algorithms,
  };
}
