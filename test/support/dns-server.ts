// A small authoritative DNS server on loopback for the webhook tests (FOLIO_WEBHOOK_DNS_SERVERS points the worker and
// the API at it). It answers only the names a test sets, only with the addresses the test gives, and can change an
// answer after it has been given once (DNS rebinding). Names it does not know get NXDOMAIN.
import { createSocket, type Socket } from 'node:dgram';
import dnsPacket from 'dns-packet';

interface DnsAnswer {
  /** IPv4 addresses for A queries and IPv6 for AAAA, as the test wants them answered. */
  addresses: string[];
  /** After this answer has been given once (per record type), answer these instead. */
  then?: string[];
}

export interface TestDnsServer {
  set(name: string, answer: DnsAnswer | string[]): void;
  /** How many queries each name received. */
  queries(name: string): number;
  close(): Promise<void>;
}

/** A UDP port free on 127.0.0.1 at this moment, for the stack's FOLIO_WEBHOOK_DNS_SERVERS. */
export async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

export async function startTestDns(port: number): Promise<TestDnsServer> {
  const table = new Map<string, { addresses: string[]; then?: string[]; given: Set<string> }>();
  const counts = new Map<string, number>();
  const socket: Socket = createSocket('udp4');
  socket.on('message', (message, remote) => {
    let query: dnsPacket.DecodedPacket;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    const name = question.name.toLowerCase();
    counts.set(name, (counts.get(name) ?? 0) + 1);
    const entry = table.get(name);
    const answers: dnsPacket.Answer[] = [];
    if (entry && (question.type === 'A' || question.type === 'AAAA')) {
      const addresses = entry.given.has(question.type) && entry.then ? entry.then : entry.addresses;
      entry.given.add(question.type);
      for (const address of addresses) {
        const v6 = address.includes(':');
        if ((question.type === 'AAAA') === v6)
          answers.push({ type: question.type, name: question.name, ttl: 0, class: 'IN', data: address });
      }
    }
    const response = dnsPacket.encode({
      id: query.id,
      type: 'response',
      flags: dnsPacket.AUTHORITATIVE_ANSWER | (entry ? 0 : 3), // rcode 3: NXDOMAIN
      questions: query.questions,
      answers,
    });
    socket.send(response, remote.port, remote.address);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, '127.0.0.1', () => resolve());
  });
  return {
    set(name, answer) {
      const value = Array.isArray(answer) ? { addresses: answer } : answer;
      table.set(name.toLowerCase(), { ...value, given: new Set() });
    },
    queries: (name) => counts.get(name.toLowerCase()) ?? 0,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
