// Thumbnail benchmark: Folio's render (format check, limits, orientation, resize, encode, encryption) next to raw
// sharp on the same images in the same run, both at the worker's render concurrency; then, through a whole stack, the
// time from an upload's completion to has_preview: true (p50/p99, one upload at a time) and the worker's throughput for
// a burst of uploads.
//
//   node --import tsx bench/thumbnails.ts
//
// FOLIO_BENCH_IMAGES (default 24) sets how many distinct images each pass renders, FOLIO_BENCH_UPLOADS (default 40)
// the uploads timed one at a time, FOLIO_BENCH_BURST (default 40) the burst; FOLIO_BENCH_KEEP=1 keeps the stack's logs.
import { randomUUID } from 'node:crypto';
import { cpus } from 'node:os';
import sharp from 'sharp';
import { startEphemeralStack } from '../deploy/local/ephemeral-stack.js';
import { issueAccessToken } from '../domain/accounts/credentials.js';
import { SCOPES } from '../domain/accounts/scopes.js';
import { createUser, createWorkspace } from '../domain/accounts/workspaces.js';
import { encryptThumbnail, generateDataKey } from '../domain/drive/crypto.js';
import { renderThumbnail, THUMBNAIL_EDGE_PX } from '../domain/drive/thumbnail-render.js';
import { createDb } from '../platform/database.js';
import { percentile, profileEnv, say } from './support.js';

const IMAGES = Number(process.env.FOLIO_BENCH_IMAGES ?? 24);
const UPLOADS = Number(process.env.FOLIO_BENCH_UPLOADS ?? 40);
const BURST = Number(process.env.FOLIO_BENCH_BURST ?? 40);
/** The worker's default FOLIO_THUMBNAIL_CONCURRENCY: both passes render this many at once. */
const CONCURRENCY = 2;
const LIMITS = { maxPixels: 100_000_000, timeoutMs: 30_000 };

interface Sample {
  name: string;
  contentType: string;
  data: Buffer;
}

/** Photo-like images (noise over a gradient, so they compress like photos): phone JPEGs, a screenshot PNG, a WebP. */
async function makeImages(count: number): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (let i = 0; i < count; i++) {
    const kind = i % 4;
    const [width, height] = kind === 3 ? [2400, 1600] : kind === 2 ? [1920, 1080] : [4032, 3024];
    const base = sharp({
      create: {
        width,
        height,
        channels: 3,
        background: { r: 40 + i, g: 90, b: 160 },
        noise: { type: 'gaussian', mean: 120 + i, sigma: 40 },
      },
    });
    if (kind === 2)
      samples.push({
        name: `screen-${i}.png`,
        contentType: 'image/png',
        data: await base.png({ compressionLevel: 6 }).toBuffer(),
      });
    else if (kind === 3)
      samples.push({
        name: `photo-${i}.webp`,
        contentType: 'image/webp',
        data: await base.webp({ quality: 80 }).toBuffer(),
      });
    else
      samples.push({
        name: `IMG_${i}.jpg`,
        contentType: 'image/jpeg',
        data: await base.jpeg({ quality: 90 }).withMetadata({ orientation: 6 }).toBuffer(),
      });
  }
  return samples;
}

/** Runs `work` over the samples with `concurrency` at a time; answers thumbnails per second. */
async function throughput(samples: Sample[], work: (sample: Sample) => Promise<unknown>): Promise<number> {
  const queue = [...samples];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let sample = queue.shift(); sample; sample = queue.shift()) await work(sample);
    }),
  );
  return samples.length / ((performance.now() - started) / 1000);
}

/** What a bare sharp pipeline does for the same output: orient, fit within 1024, encode. */
const rawSharp = (sample: Sample) =>
  sharp(sample.data)
    .autoOrient()
    .resize(THUMBNAIL_EDGE_PX, THUMBNAIL_EDGE_PX, { fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 82 })
    .toBuffer();

const key = generateDataKey();
const folioRender = async (sample: Sample) =>
  encryptThumbnail(key, randomUUID(), '1024_fit', (await renderThumbnail(sample.data, LIMITS)).data);

async function renderPasses(samples: Sample[]): Promise<void> {
  // One warm-up of each, then alternate so neither pass gets a quieter machine.
  await throughput(samples.slice(0, 2), rawSharp);
  await throughput(samples.slice(0, 2), folioRender);
  const raw: number[] = [];
  const folio: number[] = [];
  for (let round = 0; round < 3; round++) {
    raw.push(await throughput(samples, rawSharp));
    folio.push(await throughput(samples, folioRender));
  }
  const best = (values: number[]) => Math.max(...values);
  say(`render, ${samples.length} images (${describe(samples)}), ${CONCURRENCY} at a time, best of 3:`);
  say(`  raw sharp (orient, resize, JPEG):                 ${best(raw).toFixed(1)} thumbnails/s`);
  say(
    `  Folio render (checks, limits, encode, encrypt):   ${best(folio).toFixed(1)} thumbnails/s  (${(best(folio) / best(raw)).toFixed(2)}× raw)`,
  );
}

/** HEVC HEIC goes through the WASM decoder in a worker thread: its own figure, as raw sharp cannot read it. */
async function heicPass(): Promise<void> {
  const { readFileSync } = await import('node:fs');
  const { fileURLToPath } = await import('node:url');
  const heic = readFileSync(fileURLToPath(new URL('../test/fixtures/images/photo.heic', import.meta.url)));
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    await renderThumbnail(heic, LIMITS);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  say(
    `HEIC 1600×1200 (HEVC, WASM libheif in a worker thread): median ${percentile(times, 50).toFixed(0)} ms per thumbnail`,
  );
}

function describe(samples: Sample[]): string {
  const count = (type: string) => samples.filter((sample) => sample.contentType === type).length;
  return `${count('image/jpeg')} JPEG 4032×3024, ${count('image/png')} PNG 1920×1080, ${count('image/webp')} WebP 2400×1600`;
}

async function endToEnd(samples: Sample[]): Promise<void> {
  const stack = await startEphemeralStack({
    label: 'bench-thumbs',
    keep: Boolean(process.env.FOLIO_BENCH_KEEP),
    env: { FOLIO_LOG_LEVEL: 'warn', ...profileEnv() },
  });
  const knex = createDb(stack.databaseUrl);
  try {
    const workspace = await createWorkspace(knex, { name: 'bench', storageLimitBytes: 64 * 1024 ** 3 });
    const user = await createUser(knex, {
      workspaceUuid: workspace.uuid,
      email: `bench-${randomUUID()}@example.test`,
    });
    const { access_token: token } = await issueAccessToken(knex, {
      workspaceUuid: workspace.uuid,
      userUuid: user.uuid,
      scopes: [...SCOPES],
      expiresInMs: 86_400_000,
    });
    const upload = async (sample: Sample, n: number): Promise<string> => {
      const response = await fetch(`${stack.apiUrl}/v1/drive/files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: `${n}-${sample.name}`,
          content_type: sample.contentType,
          data: sample.data.toString('base64'),
        }),
      });
      if (response.status !== 201)
        throw new Error(`upload answered ${response.status}: ${await response.text()}`);
      return ((await response.json()) as { uuid: string }).uuid;
    };
    // A benchmark may poll: the figure is the time until the row says has_preview, to within the poll interval.
    const previewed = async (uuids: string[]) => {
      for (;;) {
        const rows = await knex('drive_items')
          .whereIn('uuid', uuids)
          .where({ has_preview: true })
          .count<{ count: string }[]>('uuid as count');
        if (Number(rows[0]!.count) === uuids.length) return;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };

    await previewed([await upload(samples[0]!, 0)]); // warm-up: the worker's first render loads sharp and the bundle
    const latencies: number[] = [];
    for (let n = 0; n < UPLOADS; n++) {
      const uuid = await upload(samples[n % samples.length]!, n + 1);
      const completed = performance.now(); // the 201 of a simple upload: the upload is complete
      await previewed([uuid]);
      latencies.push(performance.now() - completed);
    }
    latencies.sort((a, b) => a - b);
    say(`upload complete → has_preview: true, ${UPLOADS} simple uploads one at a time (same images):`);
    say(
      `  p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms, min ${latencies[0]!.toFixed(0)} ms, max ${latencies.at(-1)!.toFixed(0)} ms`,
    );

    const uuids: string[] = [];
    let firstCompleted = 0;
    for (let n = 0; n < BURST; n++) {
      uuids.push(await upload(samples[n % samples.length]!, 1000 + n));
      firstCompleted ||= performance.now();
    }
    const lastCompleted = performance.now();
    await previewed(uuids);
    const done = performance.now();
    say(
      `burst of ${BURST} uploads sent back to back: all previews ${(done - lastCompleted).toFixed(0)} ms after the last upload completed;`,
    );
    say(
      `  worker throughput ${(BURST / ((done - firstCompleted) / 1000)).toFixed(1)} thumbnails/s (first upload complete → last has_preview, uploads competing for the same cores)`,
    );
  } finally {
    await knex.destroy();
    await stack.stop();
  }
}

say(
  `thumbnails benchmark, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, sharp ${sharp.versions.sharp} / libvips ${sharp.versions.vips}`,
);
const samples = await makeImages(IMAGES);
await renderPasses(samples);
await heicPass();
await endToEnd(samples);
