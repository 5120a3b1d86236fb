// A throw-away certificate authority for the integration suite, made with openssl at setup: the worker (and, with
// FOLIO_TEST_TLS, the test processes) trust it through NODE_EXTRA_CA_CERTS; the webhook receivers (and the HTTPS API)
// serve a leaf for *.folio.test and loopback addresses.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Every address a receiver or a trap of the suite listens on, so one leaf serves them all. */
// 127.0.0.201–206: the fault suite's receivers (test/faults/), apart from the integration tests' addresses;
// 127.0.0.211–214: the benchmarks' (bench/webhooks.ts), so a benchmark beside a test run never takes a test's address.
const LEAF_IPS = [
  ...Array.from({ length: 44 }, (_, i) => `127.0.0.${i + 1}`),
  ...Array.from({ length: 6 }, (_, i) => `127.0.0.${201 + i}`),
  ...Array.from({ length: 4 }, (_, i) => `127.0.0.${211 + i}`),
  '127.1.0.1',
  '::1',
];

const SAN = ['DNS:folio.test', 'DNS:*.folio.test', ...LEAF_IPS.map((ip) => `IP:${ip}`)].join(',');
const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function openssl(args: string[], cwd: string) {
  execFileSync('openssl', args, { cwd, stdio: 'pipe' });
}

/** Creates ca.crt, leaf.crt/leaf.key (signed by it) and rogue.crt/rogue.key (self-signed, trusted by nobody). */
export function createTestCa(): string {
  const dir = mkdtempSync(join(tmpdir(), 'folio-test-ca-'));
  openssl(
    [
      'req',
      '-x509',
      ...EC,
      '-keyout',
      'ca.key',
      '-out',
      'ca.crt',
      '-days',
      '3',
      '-subj',
      '/CN=Folio Test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ],
    dir,
  );
  issueLeaf(dir, 'leaf', 'folio.test');
  openssl(
    [
      'req',
      '-x509',
      ...EC,
      '-keyout',
      'rogue.key',
      '-out',
      'rogue.crt',
      '-days',
      '3',
      '-subj',
      '/CN=rogue.folio.test',
      '-addext',
      `subjectAltName=${SAN}`,
    ],
    dir,
  );
  return dir;
}

/**
 * Another leaf from the CA in dir, for the same names and addresses: `<name>.crt` and `<name>.key`, its subject CN=`cn`
 * (a renewed certificate, say), valid for three days or until `expiresAt`. Returns their paths.
 */
export function issueLeaf(
  dir: string,
  name: string,
  cn: string,
  options: { expiresAt?: Date } = {},
): { certFile: string; keyFile: string } {
  writeFileSync(
    join(dir, `${name}.ext`),
    `subjectAltName=${SAN}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`,
  );
  openssl(['req', ...EC, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`], dir);
  if (options.expiresAt) {
    // `openssl x509` (3.0) counts validity in whole days; `openssl ca` takes an end date to the second.
    const stamp = (date: Date) => `${date.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;
    writeFileSync(
      join(dir, `${name}.ca.cnf`),
      `[ca]\ndefault_ca = leaf\n[leaf]\ndatabase = ${name}.index\nserial = ${name}.serial\nnew_certs_dir = .\ndefault_md = sha256\npolicy = any\nunique_subject = no\n[any]\ncommonName = supplied\n`,
    );
    writeFileSync(join(dir, `${name}.index`), '');
    writeFileSync(join(dir, `${name}.serial`), '01\n');
    openssl(
      [
        'ca',
        '-batch',
        '-config',
        `${name}.ca.cnf`,
        '-cert',
        'ca.crt',
        '-keyfile',
        'ca.key',
        '-in',
        `${name}.csr`,
        '-out',
        `${name}.crt`,
        '-notext',
        '-startdate',
        stamp(new Date(Date.now() - 3_600_000)),
        '-enddate',
        stamp(options.expiresAt),
        '-extfile',
        `${name}.ext`,
      ],
      dir,
    );
  } else {
    openssl(
      [
        'x509',
        '-req',
        '-in',
        `${name}.csr`,
        '-CA',
        'ca.crt',
        '-CAkey',
        'ca.key',
        '-CAcreateserial',
        '-out',
        `${name}.crt`,
        '-days',
        '3',
        '-extfile',
        `${name}.ext`,
      ],
      dir,
    );
  }
  return { certFile: join(dir, `${name}.crt`), keyFile: join(dir, `${name}.key`) };
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
  return {
    ca: read('ca.crt'),
    key: read('leaf.key'),
    cert: read('leaf.crt'),
    rogueKey: read('rogue.key'),
    rogueCert: read('rogue.crt'),
  };
}
