// Rendering one image to the `1024_fit` thumbnail, bounded against hostile input: a pixel limit checked from the
// header before any decode, a time limit per image, and a cap on renders at once (docs/drive-thumbnails.md § Limits).
// sharp decodes JPEG, PNG, GIF, WebP, TIFF and AVIF itself; HEVC-coded HEIC goes through a WASM libheif in a worker
// thread, which is terminated when it runs over time, and its pixels are handed to sharp.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import sharp, { type Metadata, type Sharp, type SharpOptions } from 'sharp';

/** The longest edge of the `1024_fit` variant, in pixels. */
export const THUMBNAIL_EDGE_PX = 1024;

export interface RenderLimits {
  /** Width × height of the source above which it is not decoded at all (a decompression bomb). */
  maxPixels: number;
  /** Wall-clock time one image may take, decode included. */
  timeoutMs: number;
}

export interface RenderedThumbnail {
  data: Buffer;
  contentType: 'image/jpeg' | 'image/png';
  width: number;
  height: number;
}

/** An image that cannot become a thumbnail, and never will: the file has no preview (never retried). */
export class UnrenderableImage extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnrenderableImage';
  }
}

/** What sharp may decode. Everything else it knows (SVG, PDF, raw pixel formats) is refused, so it is never parsed. */
const SOURCE_FORMATS = new Set(['jpeg', 'png', 'gif', 'webp', 'tiff', 'heif']);

// libvips keeps decoded images in a cache by default: in a long-running worker that is memory nobody asked for.
sharp.cache(false);

/** An ISO-BMFF file whose `ftyp` box names an image brand of HEIF: HEIC, HEIF or AVIF. */
export function isHeifContainer(bytes: Buffer): boolean {
  if (bytes.length < 12 || bytes.toString('latin1', 4, 8) !== 'ftyp') return false;
  return /^(heic|heix|hevc|hevx|heim|heis|mif1|msf1|avif|avis)$/.test(bytes.toString('latin1', 8, 12));
}

/** Renders `source` within `limits`; throws UnrenderableImage for anything that is not a sane image of a supported format. */
export async function renderThumbnail(source: Buffer, limits: RenderLimits): Promise<RenderedThumbnail> {
  const deadline = Date.now() + limits.timeoutMs;
  let timer: NodeJS.Timeout | undefined;
  const overtime = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new UnrenderableImage(`rendering took longer than ${limits.timeoutMs} ms`)),
      limits.timeoutMs,
    );
  });
  try {
    return await Promise.race([renderWithin(source, limits, deadline), overtime]);
  } finally {
    clearTimeout(timer);
  }
}

async function renderWithin(
  source: Buffer,
  limits: RenderLimits,
  deadline: number,
): Promise<RenderedThumbnail> {
  const options: SharpOptions = { limitInputPixels: limits.maxPixels, failOn: 'warning', pages: 1 };
  // One instance reads the header, then renders: the source is handed to libvips once.
  let image: Sharp;
  let metadata: Metadata;
  try {
    // The constructor itself throws on some input (an empty file).
    image = sharp(source, options);
    metadata = await image.metadata();
  } catch (error) {
    if (isHeifContainer(source))
      return renderDecoded(await decodeHeic(source, limits, deadline), limits, deadline);
    throw unrenderable(error);
  }
  if (!SOURCE_FORMATS.has(metadata.format ?? ''))
    throw new UnrenderableImage(`not an image format with previews: ${metadata.format ?? 'unknown'}`);
  const pixels = (metadata.width ?? 0) * (metadata.pageHeight ?? metadata.height ?? 0);
  if (!pixels) throw new UnrenderableImage('the image has no dimensions');
  if (pixels > limits.maxPixels)
    throw new UnrenderableImage(`the image has ${pixels} pixels, more than ${limits.maxPixels}`);
  // sharp's prebuilt libheif reads AVIF but not HEVC: those go through the WASM decoder.
  if (metadata.format === 'heif' && metadata.compression !== 'av1') {
    return renderDecoded(await decodeHeic(source, limits, deadline), limits, deadline);
  }
  return encode(image.autoOrient(), Boolean(metadata.hasAlpha), deadline);
}

/** Resizes within the edge (never enlarging), strips metadata (sharp keeps none unless asked) and encodes. */
async function encode(pipeline: Sharp, alpha: boolean, deadline: number): Promise<RenderedThumbnail> {
  const seconds = Math.max(1, Math.ceil((deadline - Date.now()) / 1000));
  const resized = pipeline
    .resize(THUMBNAIL_EDGE_PX, THUMBNAIL_EDGE_PX, { fit: 'inside', withoutEnlargement: true })
    .timeout({ seconds });
  // Without alpha there is nothing to flatten: the source has none, or it was removed (decoded HEIC, all opaque).
  const encoded = alpha ? resized.png({ compressionLevel: 6 }) : resized.jpeg({ quality: 82 });
  try {
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return { data, contentType: alpha ? 'image/png' : 'image/jpeg', width: info.width, height: info.height };
  } catch (error) {
    throw unrenderable(error);
  }
}

interface DecodedPixels {
  width: number;
  height: number;
  /** RGBA, 8 bits a channel, orientation already applied by libheif. */
  data: Uint8Array;
}

async function renderDecoded(
  pixels: DecodedPixels,
  limits: RenderLimits,
  deadline: number,
): Promise<RenderedThumbnail> {
  let alpha = false;
  for (let at = 3; at < pixels.data.length; at += 4) {
    if (pixels.data[at] !== 255) {
      alpha = true;
      break;
    }
  }
  const raw = { width: pixels.width, height: pixels.height, channels: 4 as const };
  const pipeline = sharp(pixels.data, { raw, limitInputPixels: limits.maxPixels });
  return encode(alpha ? pipeline : pipeline.removeAlpha(), alpha, deadline);
}

const heicDecodeModule = createRequire(import.meta.url).resolve('heic-decode');

// Plain CommonJS, evaluated in the worker thread: it needs no TypeScript loader in any process that renders.
const HEIC_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const decode = require(workerData.module);
(async () => {
  const images = await decode.all({ buffer: workerData.source });
  try {
    const first = images[0];
    if (!first) throw new Error('the HEIF file holds no image');
    if (first.width * first.height > workerData.maxPixels) {
      parentPort.postMessage({ error: 'the image has ' + first.width * first.height + ' pixels, more than ' + workerData.maxPixels });
      return;
    }
    const { width, height, data } = await first.decode();
    parentPort.postMessage({ width, height, data }, [data.buffer]);
  } finally {
    images.dispose();
  }
})().catch((error) => parentPort.postMessage({ error: String((error && error.message) || error) }));
`;

/**
 * Decodes a HEIC/HEIF with libheif compiled to WASM, in a worker thread: a hostile file that loops or runs long is
 * ended by terminating the thread at the deadline, without blocking the worker's event loop (and its heartbeats).
 */
async function decodeHeic(source: Buffer, limits: RenderLimits, deadline: number): Promise<DecodedPixels> {
  const worker = new Worker(HEIC_WORKER, {
    eval: true,
    workerData: { module: heicDecodeModule, source, maxPixels: limits.maxPixels },
    // The JavaScript heap only; the WASM memory is bounded by the pixel limit checked before decoding.
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise<DecodedPixels>((resolve, reject) => {
      timer = setTimeout(
        () => reject(new UnrenderableImage('decoding the HEIF image took too long')),
        Math.max(1, deadline - Date.now()),
      );
      worker.once('message', (message: { error?: string } & Partial<DecodedPixels>) => {
        if (message.error !== undefined) reject(new UnrenderableImage(`HEIF: ${message.error}`));
        else resolve({ width: message.width!, height: message.height!, data: message.data! });
      });
      worker.once('error', (error) => reject(new UnrenderableImage(`HEIF decoder failed: ${error.message}`)));
      worker.once('exit', (code) => reject(new UnrenderableImage(`HEIF decoder stopped (exit ${code})`)));
    });
  } finally {
    clearTimeout(timer);
    await worker.terminate();
  }
}

function unrenderable(error: unknown): UnrenderableImage {
  if (error instanceof UnrenderableImage) return error;
  return new UnrenderableImage(error instanceof Error ? error.message : String(error));
}
