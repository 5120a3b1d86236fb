// Where a webhook POST may go: the URL rules (address-policy.ts) applied to the addresses the host resolves to now,
// every one of them judged, and the one connected to chosen from those judged (no second lookup: DNS rebinding
// cannot slip an inward address in between the check and the connect).
import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import { judgeAddress, judgeWebhookUrl, parseAllowedCidrs, type Cidr } from './address-policy.js';

/** Resolves a hostname to every address it has now (A and AAAA); none → []. Errors other than "no such name" throw. */
export type HostResolver = (hostname: string) => Promise<string[]>;

const NO_ANSWER = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN', 'ENONAME']);

/**
 * The resolver of webhook hosts: the given DNS servers ("ip" or "ip:port", FOLIO_WEBHOOK_DNS_SERVERS) asked for A
 * and AAAA records, or, with none given, the system's resolver (getaddrinfo, which also reads /etc/hosts).
 */
export function createHostResolver(servers: string[], timeoutMs = 3000): HostResolver {
  if (!servers.length) {
    return async (hostname) => {
      try {
        return (await dns.lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);
      } catch (error) {
        if (NO_ANSWER.has((error as { code?: string }).code ?? '')) return [];
        throw error;
      }
    };
  }
  const resolver = new dns.Resolver({ timeout: timeoutMs, tries: 2 });
  resolver.setServers(servers);
  const ask = async (query: Promise<string[]>) => {
    try {
      return await query;
    } catch (error) {
      if (NO_ANSWER.has((error as { code?: string }).code ?? '')) return [];
      throw error;
    }
  };
  return async (hostname) => {
    const [v4, v6] = await Promise.all([ask(resolver.resolve4(hostname)), ask(resolver.resolve6(hostname))]);
    return [...v4, ...v6];
  };
}

export interface TargetPolicy {
  allowedPrivate: Cidr[];
  resolve: HostResolver;
}

/** The policy of the configuration (FOLIO_WEBHOOK_ALLOWED_PRIVATE_CIDRS, FOLIO_WEBHOOK_DNS_SERVERS). */
export function targetPolicyFrom(settings: {
  allowedPrivateCidrs: string[];
  dnsServers: string[];
}): TargetPolicy {
  return {
    allowedPrivate: parseAllowedCidrs(settings.allowedPrivateCidrs),
    resolve: createHostResolver(settings.dnsServers),
  };
}

export type TargetVerdict =
  | { allowed: true; url: URL; hostname: string; address: string; family: 4 | 6 }
  /** inward: the host is (or resolves to) an address that is not public; a delivery then disables the destination. */
  | { allowed: false; inward: boolean; reason: string };

/**
 * Judges a webhook URL now: the static rules, then every address the host resolves to. A name that resolves to
 * nothing, or whose lookup fails, is refused but not inward (a DNS outage is a failed attempt, not a reason to
 * disable). The first address answered is the one to connect to.
 */
export async function judgeTarget(text: string, policy: TargetPolicy): Promise<TargetVerdict> {
  const verdict = judgeWebhookUrl(text, policy.allowedPrivate);
  // A saved URL passed these rules when it was saved; failing them now means its literal address became non-public
  // (the operator narrowed FOLIO_WEBHOOK_ALLOWED_PRIVATE_CIDRS), so it counts as pointing inward.
  if (!verdict.allowed) return { allowed: false, inward: true, reason: verdict.reason };
  const { url, hostname, literalAddress } = verdict;
  if (literalAddress)
    return {
      allowed: true,
      url,
      hostname,
      address: literalAddress,
      family: isIP(literalAddress) === 6 ? 6 : 4,
    };
  let addresses: string[];
  try {
    addresses = await policy.resolve(hostname);
  } catch (error) {
    return {
      allowed: false,
      inward: false,
      reason: `${hostname} could not be resolved (${(error as { code?: string }).code ?? 'error'})`,
    };
  }
  if (!addresses.length)
    return { allowed: false, inward: false, reason: `${hostname} does not resolve to any address` };
  for (const address of addresses) {
    const judged = judgeAddress(address, policy.allowedPrivate);
    if (!judged.allowed)
      return { allowed: false, inward: true, reason: `${hostname} resolves to ${address}: ${judged.reason}` };
  }
  const address = addresses[0]!;
  return { allowed: true, url, hostname, address, family: isIP(address) === 6 ? 6 : 4 };
}
