// The 1024_fit render of every supported format, and its bounds against hostile images, on the committed fixtures
// (test/fixtures/images/generate.ts).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  decryptThumbnail,
  encryptThumbnail,
  generateDataKey,
  ContentIntegrityError,
} from '../../../domain/drive/crypto.js';
import {
  isHeifContainer,
  renderThumbnail,
  UnrenderableImage,
  type RenderLimits,
} from '../../../domain/drive/thumbnail-render.js';
import { checkVariant, isPreviewable, mayHavePreview } from '../../../domain/drive/thumbnails.js';
import { renderSlots } from '../../../activities/thumbnails.js';

const IMAGES = fileURLToPath(new URL('../../fixtures/images/', import.meta.url));
const image = (name: string) => readFileSync(IMAGES + name);
const LIMITS: RenderLimits = { maxPixels: 100_000_000, timeoutMs: 60_000 };

/** The colour of the output's pixel at (x, y), as [r, g, b]. */
async function pixel(data: Buffer, x: number, y: number): Promise<number[]> {
  const { data: raw, info } = await sharp(data).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [raw[at]!, raw[at + 1]!, raw[at + 2]!];
}

/** The WASM HEIC decoder is slow on a busy two-core machine: a cap, not a measure. */
const SLOW = 60_000;

const near = (actual: number[], expected: number[]) =>
  actual.every((value, i) => Math.abs(value - expected[i]!) < 40);

describe('renderThumbnail', () => {
  it('applies EXIF orientation, fits the longest edge to 1024 px and strips all metadata (JPEG)', async () => {
    const result = await renderThumbnail(image('photo-exif-rotated.jpg'), LIMITS);
    // Stored 2000×1500 with orientation 6: displayed 1500×2000, so 768×1024.
    expect(result).toMatchObject({ contentType: 'image/jpeg', width: 768, height: 1024 });
    const metadata = await sharp(result.data).metadata();
    expect(metadata).toMatchObject({ format: 'jpeg', width: 768, height: 1024 });
    expect(metadata.exif).toBeUndefined();
    expect(metadata.orientation).toBeUndefined();
    expect(result.data.includes('FolioCam')).toBe(false);
    // The red block stored top-left ends top-right once rotated 90° clockwise.
    expect(near(await pixel(result.data, 760, 10), [255, 0, 0])).toBe(true);
    expect(near(await pixel(result.data, 10, 10), [255, 0, 0])).toBe(false);
  });

  it('keeps a small image at its size (never enlarged) and keeps its alpha channel as PNG', async () => {
    const result = await renderThumbnail(image('alpha.png'), LIMITS);
    expect(result).toMatchObject({ contentType: 'image/png', width: 300, height: 200 });
    const { data, info } = await sharp(result.data).raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(4);
    expect(data[3]).toBe(255); // left half opaque
    expect(data[(250 + 100 * 300) * 4 + 3]).toBe(0); // right half transparent
  });

  it('renders the first frame of an animated GIF', async () => {
    const result = await renderThumbnail(image('animated.gif'), LIMITS);
    expect(result).toMatchObject({ width: 400, height: 300 });
    expect(near(await pixel(result.data, 200, 150), [255, 0, 0])).toBe(true);
    expect((await sharp(result.data).metadata()).pages ?? 1).toBe(1);
  });

  it.each([
    ['wide.webp', 1024, 341],
    ['scan.tiff', 768, 1024],
    ['photo.avif', 1024, 768],
    ['photo.heic', 1024, 768],
  ])(
    'renders %s to %i×%i JPEG',
    async (name, width, height) => {
      const result = await renderThumbnail(image(name), LIMITS);
      expect(result).toMatchObject({ contentType: 'image/jpeg', width, height });
      expect((await sharp(result.data).metadata()).format).toBe('jpeg');
    },
    SLOW,
  );

  it(
    'decodes HEVC-coded HEIC (which sharp alone cannot) through the WASM decoder',
    async () => {
      const heic = image('photo.heic');
      expect(isHeifContainer(heic)).toBe(true);
      await expect(sharp(heic).toBuffer()).rejects.toThrow();
      const result = await renderThumbnail(heic, LIMITS);
      expect(near(await pixel(result.data, 10, 10), [255, 0, 0])).toBe(true);
    },
    SLOW,
  );

  it(
    'renders a HEIC taken by a phone (an iPhone XS: HEVC tile grid, EXIF orientation 6) upright and without its tags',
    async () => {
      const heic = image('iphone-xs.heic');
      expect(heic.includes('iPhone XS')).toBe(true);
      const result = await renderThumbnail(heic, LIMITS);
      // Stored 4032×3024 landscape with orientation 6: displayed portrait, so 768×1024.
      expect(result).toMatchObject({ contentType: 'image/jpeg', width: 768, height: 1024 });
      const metadata = await sharp(result.data).metadata();
      expect(metadata).toMatchObject({ format: 'jpeg', width: 768, height: 1024 });
      expect(metadata.exif).toBeUndefined();
      expect(metadata.orientation).toBeUndefined();
      expect(result.data.includes('iPhone')).toBe(false);
      expect(result.data.includes('Apple')).toBe(false);
    },
    SLOW,
  );

  it('refuses a decompression bomb from its header, before decoding it', async () => {
    const started = process.memoryUsage().rss;
    await expect(renderThumbnail(image('bomb.png'), LIMITS)).rejects.toBeInstanceOf(UnrenderableImage);
    expect(process.memoryUsage().rss - started).toBeLessThan(100 * 1024 * 1024);
  });

  it(
    'refuses a HEIC over the pixel limit before decoding it',
    async () => {
      await expect(renderThumbnail(image('photo.heic'), { ...LIMITS, maxPixels: 1_000_000 })).rejects.toThrow(
        /pixels/,
      );
    },
    SLOW,
  );

  it('refuses a truncated file, a text file named .jpg, and formats without previews', async () => {
    await expect(renderThumbnail(image('truncated.jpg'), LIMITS)).rejects.toBeInstanceOf(UnrenderableImage);
    await expect(renderThumbnail(image('not-an-image.jpg'), LIMITS)).rejects.toBeInstanceOf(
      UnrenderableImage,
    );
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
    );
    await expect(renderThumbnail(svg, LIMITS)).rejects.toThrow(/svg/);
    await expect(renderThumbnail(Buffer.alloc(0), LIMITS)).rejects.toBeInstanceOf(UnrenderableImage);
  });

  it('renders a PNG whose name says JPEG by what it is', async () => {
    const result = await renderThumbnail(image('png-named.jpg'), LIMITS);
    expect(result).toMatchObject({ width: 500, height: 500 });
  });

  it(
    'gives up on an image that takes longer than its time limit, and the decoder thread is ended',
    async () => {
      await expect(renderThumbnail(image('photo.heic'), { ...LIMITS, timeoutMs: 5 })).rejects.toThrow(/took/);
      // The process still renders afterwards: nothing was left stuck.
      expect((await renderThumbnail(image('alpha.png'), LIMITS)).width).toBe(300);
    },
    SLOW,
  );
});

describe('renderSlots', () => {
  it('runs at most the given number of renders at once; the others wait their turn', async () => {
    let active = 0;
    let most = 0;
    const gates: (() => void)[] = [];
    const fake = async () => {
      active++;
      most = Math.max(most, active);
      await new Promise<void>((resolve) => gates.push(resolve));
      active--;
      return { data: Buffer.alloc(0), contentType: 'image/png' as const, width: 1, height: 1 };
    };
    const slots = renderSlots(() => 2, fake);
    const all = Promise.all(Array.from({ length: 6 }, () => slots(Buffer.alloc(0), LIMITS)));
    // Open one gate at a time; each opening lets one waiting render in.
    for (let opened = 0; opened < 6; opened++) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(active).toBeLessThanOrEqual(2);
      gates.shift()!();
    }
    await all;
    expect(most).toBe(2);
  });
});

describe('thumbnail eligibility and encryption', () => {
  it("knows the spec's image types, and untyped files by their extension", () => {
    const file = (content_type: string, name = 'x') => ({
      kind: 'file' as const,
      content_type,
      name,
      file_size_bytes: 10,
    });
    for (const type of [
      'image/jpeg',
      'image/png',
      'image/gif',
      'image/webp',
      'image/tiff',
      'image/heic',
      'image/heif',
      'image/avif',
      'IMAGE/JPEG; q=1',
    ])
      expect(isPreviewable(file(type))).toBe(true);
    expect(isPreviewable(file('application/pdf'))).toBe(false);
    expect(isPreviewable(file('image/svg+xml'))).toBe(false);
    expect(isPreviewable(file('application/octet-stream', 'IMG_0001.HEIC'))).toBe(true);
    expect(isPreviewable(file('application/octet-stream', 'notes.txt'))).toBe(false);
    expect(isPreviewable({ ...file('image/png'), kind: 'folder' })).toBe(false);
    expect(mayHavePreview({ ...file('image/png'), file_size_bytes: 11 }, { maxSourceBytes: 10 })).toBe(false);
  });

  it('accepts only the 1024_fit variant, which is also the default', () => {
    expect(checkVariant(undefined)).toBe('1024_fit');
    expect(checkVariant('1024_fit')).toBe('1024_fit');
    for (const bad of ['256_fit', '', ['1024_fit'], 1024])
      expect(() => checkVariant(bad)).toThrow(
        expect.objectContaining({ status: 400, code: 'invalid_variant' }),
      );
  });

  it('binds a stored thumbnail to its version and variant', () => {
    const key = generateDataKey();
    const sealed = encryptThumbnail(
      key,
      '7b0e6c2a-3f4d-4c1e-9a8b-1d2e3f4a5b6c',
      '1024_fit',
      Buffer.from('pixels'),
    );
    expect(decryptThumbnail(key, '7b0e6c2a-3f4d-4c1e-9a8b-1d2e3f4a5b6c', '1024_fit', sealed).toString()).toBe(
      'pixels',
    );
    expect(() => decryptThumbnail(key, '00000000-3f4d-4c1e-9a8b-1d2e3f4a5b6c', '1024_fit', sealed)).toThrow(
      ContentIntegrityError,
    );
    expect(() => decryptThumbnail(key, '7b0e6c2a-3f4d-4c1e-9a8b-1d2e3f4a5b6c', '2048_fit', sealed)).toThrow(
      ContentIntegrityError,
    );
  });
});
