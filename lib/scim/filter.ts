// The one filter form Okta and Microsoft Entra ID send when they look a person or a group up before
// provisioning it (RFC 7644 §3.4.2.2): `<attribute> eq "<value>"`. Anything else is SCIM's 400
// invalidFilter: answering a filter we cannot evaluate with everything would make the identity
// provider believe it found someone.
import { ScimError } from '../http/scim-errors';

export interface EqualityFilter {
  attribute: string;
  value: string;
}

const EQUALITY = /^\s*([A-Za-z][\w.:-]*)\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$/i;

/** The filter of `raw`, when it names one of `attributes` (compared case-insensitively, as SCIM's attribute names are). */
export function parseEqualityFilter(raw: string, attributes: readonly string[]): EqualityFilter {
  const match = EQUALITY.exec(raw);
  if (!match) {
    throw new ScimError(400, 'invalidFilter', `filter must be ${attributes.map((a) => `${a} eq "…"`).join(' or ')}; got: ${raw}`);
  }
  const attribute = attributes.find((name) => name.toLowerCase() === match[1].toLowerCase());
  if (!attribute) {
    throw new ScimError(400, 'invalidFilter', `filter may name ${attributes.join(' or ')} only; got: ${match[1]}`);
  }
  return { attribute, value: match[2].replace(/\\(.)/g, '$1') };
}

/** `startIndex` (1-based) and `count` of a list (RFC 7644 §3.4.2.4): below 1 is 1, a negative count 0. */
export function pageOf(query: URLSearchParams, maxCount: number): { startIndex: number; count: number } {
  const number = (name: string, fallback: number) => {
    const raw = query.get(name);
    if (raw === null || raw.trim() === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value)) throw new ScimError(400, 'invalidValue', `${name} must be a whole number; got: ${raw}`);
    return value;
  };
  return { startIndex: Math.max(1, number('startIndex', 1)), count: Math.min(maxCount, Math.max(0, number('count', maxCount))) };
}
