// SCIM's error body (RFC 7644 §3.12) for every answer under /scim/v2 that is not a success: the
// error classes of errors.ts mapped to `{schemas: [Error], status: "<code as a string>", scimType?,
// detail}` in application/scim+json, which Okta and Microsoft Entra ID read. gateway-results.ts calls
// it for those paths, so an error of any layer (authentication, a request limit, a use case) comes out
// in this shape.
import { BadRequest, Conflict, HttpError, Invalid } from './errors';

export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';
export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** RFC 7644 Table 9's detail error keywords that this service answers with. */
export type ScimType =
  'invalidFilter' | 'tooMany' | 'uniqueness' | 'mutability' | 'invalidSyntax' | 'invalidPath' | 'noTarget' | 'invalidValue';

/** An error that says which of SCIM's keywords it is. */
export class ScimError extends HttpError {
  constructor(
    status: number,
    readonly scimType: ScimType | undefined,
    detail: string,
  ) {
    super(status, detail);
  }
}

export function isScimPath(path: string): boolean {
  return path === '/scim' || path.startsWith('/scim/');
}

export interface ScimErrorBody {
  schemas: string[];
  status: string;
  scimType?: ScimType;
  detail: string;
}

function scimTypeOf(error: HttpError): ScimType | undefined {
  if (error instanceof ScimError) return error.scimType;
  if (error instanceof Invalid) return 'invalidValue';
  if (error instanceof BadRequest) return 'invalidSyntax';
  // The account-user and team use cases answer a taken address or name with these words.
  if (error instanceof Conflict && /already (taken|in this account|in use)/.test(error.message)) return 'uniqueness';
  return undefined;
}

/** The status and SCIM body of an error the service knows (validation failures are SCIM's 400). */
export function scimErrorOf(error: HttpError): { status: number; body: ScimErrorBody } {
  const status = error.status === 422 ? 400 : error.status;
  const scimType = scimTypeOf(error);
  return {
    status,
    body: { schemas: [SCIM_ERROR_SCHEMA], status: String(status), ...(scimType ? { scimType } : {}), detail: error.messages.join('; ') },
  };
}

/** The body of an error the service did not expect: nothing of it leaks. */
export function scimServerError(status: number, detail: string): ScimErrorBody {
  return { schemas: [SCIM_ERROR_SCHEMA], status: String(status), detail };
}
