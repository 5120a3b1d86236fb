// A throw-away certificate authority for the webhook receivers of the integration suite, made with openssl at setup:
// the worker trusts it through NODE_EXTRA_CA_CERTS; the receivers serve a leaf for *.folio.test and loopback addresses.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Every address a receiver or a trap of the suite listens on, so one leaf serves them all. */
// 127.0.0.201–206: the fault suite's receivers (test/faults/), apart from the integration tests' addresses.
const LEAF_IPS = [...Array.from({ length: 40 }, (_, i) => `127.0.0.${i + 1}`), ...Array.from({ length: 6 }, (_, i) => `127.0.0.${201 + i}`), '127.1.0.1', '::1'];

function openssl(args: string[], cwd: string) {
  execFileSync('openssl', args, { cwd, stdio: 'pipe' });
}

/** Creates ca.crt, leaf.crt/leaf.key (signed by it) and rogue.crt/rogue.key (self-signed, trusted by nobody). */
export function createTestCa(): string {
  const dir = mkdtempSync(join(tmpdir(), 'folio-test-ca-'));
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '3', '-subj', '/CN=Folio Test CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'], dir);
  const san = ['DNS:folio.test', 'DNS:*.folio.test', ...LEAF_IPS.map((ip) => `IP:${ip}`)].join(',');
  writeFileSync(join(dir, 'leaf.ext'), `subjectAltName=${san}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`);
  openssl(['req', ...ec, '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', '/CN=folio.test'], dir);
  openssl(['x509', '-req', '-in', 'leaf.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'leaf.crt', '-days', '3', '-extfile', 'leaf.ext'], dir);
  openssl(['req', '-x509', ...ec, '-keyout', 'rogue.key', '-out', 'rogue.crt', '-days', '3', '-subj', '/CN=rogue.folio.test',
    '-addext', `subjectAltName=${san}`], dir);
  return dir;
}

export interface TestCertificates {
  ca: Buffer;
  key: Buffer;
  cert: Buffer;
  rogueKey: Buffer;
  rogueCert: Buffer;
}

export function readTestCertificates(dir = process.env.FOLIO_TEST_CA_DIR!): TestCertificates {
  const read = (name: string) => readFileSync(join(dir, name));
  return { ca: read('ca.crt'), key: read('leaf.key'), cert: read('leaf.crt'), rogueKey: read('rogue.key'), rogueCert: read('rogue.crt') };
}
