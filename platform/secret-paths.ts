// The one redaction of request paths for logs, traces and metrics (docs/operations.md § Secrets in logs): a route whose
// path carries a secret declares that segment here, and every path that is logged goes through redactPath.

/** A path prefix, as normalised segments, whose next segment is a secret; and what the log shows instead. */
interface SecretSegment {
  prefix: string[];
  placeholder: string;
}

const declared: SecretSegment[] = [];

// Folio's own secrets start with folio_<two letters>_ (access tokens, API keys, sign-in links, admin sessions): a
// segment that does is left out wherever it appears, declared or not, so a route added without a declaration still
// keeps these out of the log.
const PREFIXED_SECRET = /^folio_[a-z]{2}_/i;

/** The segment as the router may read it: routes match in any case (@koa/router's default) and clients may %-encode. */
function normalise(segment: string): string {
  try {
    return decodeURIComponent(segment).toLowerCase();
  } catch {
    return segment.toLowerCase();
  }
}

const segmentsOf = (path: string) => path.split('/').filter(Boolean).map(normalise);

/**
 * Declares that the segment right after `prefix` is a secret, as in `declareSecretSegment('/s', '<token>')` for
 * /s/<token>. Called by the route that serves such paths, next to its definition; matched in any case.
 */
export function declareSecretSegment(prefix: string, placeholder = '<secret>'): void {
  const segments = segmentsOf(prefix);
  if (segments.length === 0) throw new Error('a secret segment needs a non-empty prefix');
  if (declared.some((one) => one.prefix.join('/') === segments.join('/'))) return;
  declared.push({ prefix: segments, placeholder });
}

/**
 * The path as it may be logged: every declared secret segment replaced by its placeholder, wherever its prefix
 * appears in the path (a path no router serves is redacted too), and no query string or fragment at all.
 */
export function redactPath(path: string): string {
  const end = path.search(/[?#]/);
  const parts = (end === -1 ? path : path.slice(0, end)).split('/');
  const keys = parts.map(normalise);
  // Empty segments (//s//x) are skipped when matching, as a lenient proxy in front might collapse them.
  const filled = keys.flatMap((key, index) => (key ? [index] : []));
  for (let at = 0; at < filled.length; at++) {
    const index = filled[at]!;
    if (PREFIXED_SECRET.test(keys[index]!)) parts[index] = '<secret>';
    for (const { prefix, placeholder } of declared) {
      const secretAt = at + prefix.length;
      if (
        secretAt < filled.length &&
        prefix.every((segment, offset) => keys[filled[at + offset]!] === segment)
      ) {
        parts[filled[secretAt]!] = placeholder;
      }
    }
  }
  return parts.join('/');
}
