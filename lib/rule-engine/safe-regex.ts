// User regular expressions ($regex) run on RE2 (re2js, a pure-JavaScript port), whose matching time
// is linear in the input: no pattern saved in a router can hang the routing worker the way a
// backtracking pattern such as ^(a+)+$ hangs JavaScript's RegExp (ReDoS). The price is RE2's
// syntax: no backreferences and no lookaround; such patterns are refused when a rule set is saved.
// Patterns and tested values are bounded (LIMITS.regexPattern, LIMITS.regexSubject).
import { onFirstUse } from '../on-first-use';
import { LIMITS } from './limits';

/** RE2, loaded with the first rule that holds a $regex (lib/on-first-use.ts). */
const re2 = /* @__PURE__ */ onFirstUse(() => import('re2js'));

export type RegexResult = { ok: true; test: (value: string) => boolean } | { ok: false; message: string };

const cache = new Map<string, RegexResult>();

export function checkRegexOptions(options: unknown): string | null {
  if (typeof options !== 'string' || !/^[ims]*$/.test(options)) {
    return 'must be made of the letters i, m and s';
  }
  return null;
}

export function compileRegex(pattern: string, options = ''): RegexResult {
  const key = `${options}/${pattern}`;
  const cached = cache.get(key);
  if (cached) return cached;
  let result: RegexResult;
  if (pattern.length > LIMITS.regexPattern) {
    result = { ok: false, message: `is longer than ${LIMITS.regexPattern} characters` };
  } else {
    const optionFault = checkRegexOptions(options);
    if (optionFault) return { ok: false, message: `has $options that ${optionFault}` };
    const { RE2JS } = re2();
    const bits: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL };
    let flags = 0;
    for (const letter of options) flags |= bits[letter];
    try {
      const compiled = RE2JS.compile(pattern, flags);
      result = {
        ok: true,
        test: (value) => compiled.test(value.length > LIMITS.regexSubject ? value.slice(0, LIMITS.regexSubject) : value),
      };
    } catch (error) {
      const detail = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : 'unreadable';
      result = { ok: false, message: `is not a supported regular expression (RE2 syntax, no lookaround or backreferences): ${detail}` };
    }
  }
  if (cache.size > 2000) cache.clear();
  cache.set(key, result);
  return result;
}
