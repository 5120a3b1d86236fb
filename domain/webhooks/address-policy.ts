// Which receivers a webhook may reach (spec/webhooks.md § URL rules): an https URL on port 443 whose host is a public
// unicast address. Private, loopback, link-local, CGNAT, unique-local, multicast, unspecified, documentation and other
// special ranges are refused, in every spelling; an operator may allow-list private CIDRs (FOLIO_WEBHOOK_ALLOWED_PRIVATE_CIDRS).
import ipaddr from 'ipaddr.js';

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

type Address = ipaddr.IPv4 | ipaddr.IPv6;
export type Cidr = [Address, number];

/** Parses the operator's allow-list; a bad entry throws, so the configuration check can name it. */
export function parseAllowedCidrs(cidrs: string[]): Cidr[] {
  return cidrs.map((cidr) => {
    try {
      return ipaddr.parseCIDR(cidr);
    } catch {
      throw new Error(`"${cidr}" is not a CIDR such as 127.0.0.0/24`);
    }
  });
}

/**
 * The address a packet would really go to: IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d) and
 * NAT64 (64:ff9b::/96) forms carry an IPv4 address, and are judged as that address.
 */
function effectiveAddress(address: Address): Address {
  if (address.kind() === 'ipv4') return address;
  const v6 = address as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
  const range = v6.range();
  if (range === 'rfc6145' || range === 'rfc6052') return new ipaddr.IPv4(v6.toByteArray().slice(12));
  return v6;
}

const inAny = (address: Address, cidrs: Cidr[]) =>
  cidrs.some(([base, bits]) => base.kind() === address.kind() && address.match(base as never, bits));

/**
 * Judges one IP address in canonical text (as DNS answers it, or as the URL parser normalised a literal host).
 * Only the 'unicast' range of ipaddr.js is public; everything it names (loopback, private, linkLocal, reserved…) is not.
 */
export function judgeAddress(text: string, allowedPrivate: Cidr[] = []): AddressVerdict {
  if (!ipaddr.isValid(text)) return { allowed: false, reason: `"${text}" is not an IP address` };
  const address = effectiveAddress(ipaddr.parse(text));
  if (inAny(address, allowedPrivate)) return { allowed: true };
  // IPv4-compatible ::a.b.c.d (deprecated, RFC 4291) falls in ipaddr.js's 'unicast'; nothing legitimate uses it.
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0)) {
    return { allowed: false, reason: `${text} is an IPv4-compatible IPv6 address` };
  }
  const range = address.range();
  if (range !== 'unicast')
    return { allowed: false, reason: `${text} is a ${range} address, not a public one` };
  return { allowed: true };
}

export type UrlVerdict =
  | { allowed: true; url: URL; hostname: string; literalAddress: string | undefined }
  | { allowed: false; reason: string };

/**
 * The URL rules that need no network: https, port 443, no credentials, and a literal address host judged now. The
 * WHATWG parser turns decimal, octal, hex and short IPv4 spellings (2130706433, 0x7f.1, 017700000001) into dotted
 * form, so they are judged as the address they are. A hostname is judged on its resolved addresses at delivery.
 */
export function judgeWebhookUrl(text: string, allowedPrivate: Cidr[] = []): UrlVerdict {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { allowed: false, reason: 'not a valid URL' };
  }
  if (url.protocol !== 'https:') return { allowed: false, reason: 'the scheme must be https' };
  if (url.port !== '' && url.port !== '443') return { allowed: false, reason: 'the port must be 443' };
  if (url.username || url.password)
    return { allowed: false, reason: 'credentials in the URL are not allowed' };
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (!ipaddr.isValid(hostname)) {
    if (!hostname.includes('.') || hostname.endsWith('.localhost') || hostname === 'localhost') {
      return { allowed: false, reason: 'the host must be a public domain name or address' };
    }
    return { allowed: true, url, hostname, literalAddress: undefined };
  }
  const verdict = judgeAddress(hostname, allowedPrivate);
  return verdict.allowed ? { allowed: true, url, hostname, literalAddress: hostname } : verdict;
}
