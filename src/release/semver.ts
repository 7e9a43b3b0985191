// Semantic-version precedence (D15.7, SemVer 2.0.0 §11): a leading `v` is stripped, a pre-release is lower
// than its release, build metadata is ignored. Anything that is not a valid version (leading zeros, empty
// identifiers, missing parts) does not parse, and the caller treats that as "cannot tell" (null).

interface SemVer {
  core: [string, string, string];
  pre: string[];
}

const NUM = "0|[1-9]\\d*";
const PRE_ID = "(?:0|[1-9]\\d*|\\d*[A-Za-z-][0-9A-Za-z-]*)";
const BUILD_ID = "[0-9A-Za-z-]+";
const SEMVER = new RegExp(
  `^v?(${NUM})\\.(${NUM})\\.(${NUM})(?:-(${PRE_ID}(?:\\.${PRE_ID})*))?(?:\\+${BUILD_ID}(?:\\.${BUILD_ID})*)?$`,
);

export function parseSemver(v: string): SemVer | null {
  const m = SEMVER.exec(v.trim());
  if (!m) return null;
  return { core: [m[1]!, m[2]!, m[3]!], pre: m[4] ? m[4].split(".") : [] };
}

const isNumeric = (s: string) => /^\d+$/.test(s);

/** Numeric strings without leading zeros compare by length first, so huge numbers stay exact. */
function compareNumeric(a: string, b: string): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a === b ? 0 : a < b ? -1 : 1;
}

function compareIdentifier(a: string, b: string): number {
  const an = isNumeric(a);
  const bn = isNumeric(b);
  if (an && bn) return compareNumeric(a, b);
  if (an !== bn) return an ? -1 : 1; // numeric identifiers are lower than alphanumeric ones
  return a === b ? 0 : a < b ? -1 : 1; // ASCII order
}

/** -1, 0 or 1 by precedence; null when either side is not a semantic version. */
export function compareVersions(a: string, b: string): -1 | 0 | 1 | null {
  const x = parseSemver(a);
  const y = parseSemver(b);
  if (!x || !y) return null;
  for (let i = 0; i < 3; i++) {
    const c = compareNumeric(x.core[i]!, y.core[i]!);
    if (c !== 0) return c as -1 | 1;
  }
  if (!x.pre.length || !y.pre.length) return x.pre.length === y.pre.length ? 0 : x.pre.length ? -1 : 1;
  const n = Math.min(x.pre.length, y.pre.length);
  for (let i = 0; i < n; i++) {
    const c = compareIdentifier(x.pre[i]!, y.pre[i]!);
    if (c !== 0) return c as -1 | 1;
  }
  // all shared identifiers equal: the longer set is higher
  return x.pre.length === y.pre.length ? 0 : x.pre.length < y.pre.length ? -1 : 1;
}
