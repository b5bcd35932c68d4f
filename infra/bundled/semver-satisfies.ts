// semver as the functions' bundles carry it (infra/bundling.ts aliases `semver` here). Its one user
// in a bundle is jsonwebtoken, which asks three questions of the running Node's version at load
// (lib/psSupported.js, asymmetricKeyDetailsSupported.js, rsaPssKeyDetailsSupported.js): `satisfies`
// with `>=` and `^` ranges joined by `||`. The whole package (~29 KiB in every HTTP function) answers
// them no better; a range of any other form throws, so a jsonwebtoken that starts asking something
// else fails its first load (test/infra/bundled-semver.test.ts checks the answers against semver).

type Version = [number, number, number];

function parseVersion(text: string): Version {
  const match = /^v?(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/.exec(text.trim());
  if (!match) throw new TypeError(`Invalid Version: ${text}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** The exclusive upper bound of a caret range: the next change of its left-most non-zero part. */
function caretCeiling([major, minor, patch]: Version): Version {
  if (major > 0) return [major + 1, 0, 0];
  if (minor > 0) return [0, minor + 1, 0];
  return [0, 0, patch + 1];
}

function satisfiesComparator(version: Version, comparator: string): boolean {
  if (comparator.startsWith('>=')) return compare(version, parseVersion(comparator.slice(2))) >= 0;
  if (comparator.startsWith('^')) {
    const floor = parseVersion(comparator.slice(1));
    return compare(version, floor) >= 0 && compare(version, caretCeiling(floor)) < 0;
  }
  throw new TypeError(`semver range not supported in the bundle (infra/bundled/semver-satisfies.ts): ${comparator}`);
}

export function satisfies(version: string, range: string): boolean {
  const parsed = parseVersion(version);
  return range.split('||').some((alternative) => {
    const comparators = alternative.trim().split(/\s+/);
    return comparators.every((comparator) => satisfiesComparator(parsed, comparator));
  });
}
