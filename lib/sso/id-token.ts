// The ID token of a sign-in, checked with `jose` (a maintained JOSE library, rather than JWT checks of
// our own): its signature against the issuer's published keys (JWKS), then iss, aud (and azp when
// there are several audiences), exp, iat and the sign-in's nonce. Only the asymmetric algorithms the
// issuer advertised are accepted, so `none` and HMAC tokens are refused. The time is the service's
// clock (lib/clock.ts). `jose` is loaded the first time a sign-in needs it (lib/on-first-use.ts):
// no other function carries it.
import { now } from '../clock';
import { onFirstUse, whenLoaded } from '../on-first-use';
import { callIssuer } from './issuer-calls';

const jose = /* @__PURE__ */ onFirstUse(() => import('jose'));

/** Seconds of difference between the issuer's clock and ours that exp and iat forgive. */
const CLOCK_TOLERANCE_SECONDS = 60;

export interface IdTokenExpectations {
  issuer: string;
  clientId: string;
  jwksUri: string;
  algorithms: string[];
  nonce: string;
}

export interface VerifiedIdentity {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

/** A check the ID token failed; the message is the reason the person is shown. */
export class IdTokenRefused extends Error {}

function reasonOf(error: unknown, lib: typeof import('jose')): string {
  if (error instanceof lib.errors.JWTExpired) return 'the ID token has expired (exp)';
  if (error instanceof lib.errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return 'the ID token was issued for another client (aud)';
    if (error.claim === 'iss') return 'the ID token was issued by another issuer (iss)';
    if (error.claim === 'iat' || error.claim === 'nbf') return `the ID token is not valid yet (${error.claim})`;
    return `the ID token's ${error.claim} claim is missing or invalid`;
  }
  if (error instanceof lib.errors.JWSSignatureVerificationFailed || error instanceof lib.errors.JWKSNoMatchingKey) {
    return "the ID token's signature does not match the issuer's keys";
  }
  if (error instanceof lib.errors.JOSEAlgNotAllowed) return 'the ID token is signed with an algorithm the issuer does not use';
  if (error instanceof lib.errors.JOSEError) return 'the ID token is malformed';
  throw error;
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);

export async function verifyIdToken(idToken: string, expected: IdTokenExpectations): Promise<VerifiedIdentity> {
  const lib = await whenLoaded(() => jose());
  const keySet = lib.createLocalJWKSet((await callIssuer({ url: expected.jwksUri })) as unknown as import('jose').JSONWebKeySet);
  let payload: import('jose').JWTPayload;
  try {
    ({ payload } = await lib.jwtVerify(idToken, keySet, {
      issuer: expected.issuer,
      audience: expected.clientId,
      algorithms: expected.algorithms,
      currentDate: new Date(now()),
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['sub', 'exp', 'iat'],
    }));
  } catch (error) {
    throw new IdTokenRefused(reasonOf(error, lib));
  }
  // OpenID Connect Core §3.1.3.7: a token for several audiences names the client it was given to.
  if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== expected.clientId) {
    throw new IdTokenRefused('the ID token was issued for another client (azp)');
  }
  if (payload.nonce !== expected.nonce) throw new IdTokenRefused('the ID token does not carry the nonce of this sign-in');
  const verified = payload.email_verified;
  return {
    subject: String(payload.sub),
    email: text(payload.email)?.toLowerCase() ?? null,
    // Some issuers send the flag as a string. Microsoft Entra ID sends no email_verified at all: its
    // optional claim xms_edov says whether the address's domain owner is verified, which is its word for it.
    emailVerified: verified === true || verified === 'true' || (verified === undefined && payload.xms_edov === true),
    name: text(payload.name) ?? ([text(payload.given_name), text(payload.family_name)].filter(Boolean).join(' ') || null),
  };
}
