import type { Sharp } from 'sharp';
import { AppError } from '../../lib/errors.js';
import { lazyModule } from '../../lib/lazy-module.js';
import type { ImageSize } from './media-urls.js';

export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const MEDIA_TYPES = [...IMAGE_TYPES, 'application/pdf'] as const;
type ImageType = (typeof IMAGE_TYPES)[number];
export type MediaType = (typeof MEDIA_TYPES)[number];

const EXTENSION: Record<MediaType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
};
/** The name sharp's metadata gives each image type: the decoder must agree with the sniffed type. */
const SHARP_FORMAT: Record<ImageType, string> = { 'image/jpeg': 'jpeg', 'image/png': 'png', 'image/webp': 'webp' };

interface SizeSpec {
  name: ImageSize;
  width: number;
  height: number;
  fit: 'cover' | 'inside';
}
/** The image decoder (libvips) and the type sniffer: loaded at the first upload, not at start. */
const sharpLibrary = lazyModule(async () => (await import('sharp')).default);
const fileTypeLibrary = lazyModule(() => import('file-type'));
type SharpLibrary = Awaited<ReturnType<typeof sharpLibrary>>;

const SIZE_SPECS: readonly SizeSpec[] = [
  { name: 'thumbnail', width: 150, height: 150, fit: 'cover' },
  { name: 'medium', width: 600, height: 600, fit: 'inside' },
  { name: 'large', width: 1200, height: 1200, fit: 'inside' },
];

interface EncodedImage {
  body: Buffer;
  width: number;
  height: number;
}

/** What gets stored for one upload: the original (re-encoded for images) and, for images, its sizes. */
export interface ProcessedUpload {
  mimeType: MediaType;
  extension: string;
  body: Buffer;
  width: number | null;
  height: number | null;
  sizes: Partial<Record<ImageSize, EncodedImage>>;
}

export interface ProcessingOptions {
  accept: readonly MediaType[];
  /** Largest accepted image, in pixels (width × height): the decompression-bomb guard. */
  maxPixels: number;
}

/**
 * Checks and prepares an uploaded file. The type comes from the bytes alone (the client's name and
 * Content-Type are ignored), so SVG, HTML, GIF and anything unrecognised are refused. Images are decoded
 * and written again in their own format: EXIF orientation is applied and every piece of metadata (GPS
 * position included) is left behind, as is anything appended to the image data (polyglot payloads).
 * Documents are kept as they are.
 */
export async function processUpload(bytes: Buffer, options: ProcessingOptions): Promise<ProcessedUpload> {
  const mimeType = await sniffType(bytes, options.accept);
  if (mimeType === 'application/pdf') {
    return { mimeType, extension: EXTENSION[mimeType], body: bytes, width: null, height: null, sizes: {} };
  }
  const sharp = await sharpLibrary();
  await checkImageHeader(sharp, bytes, mimeType, options.maxPixels);
  try {
    const source = sharp(bytes, { limitInputPixels: options.maxPixels }).rotate();
    const original = await encode(source.clone(), mimeType);
    const sizes: ProcessedUpload['sizes'] = {};
    for (const spec of SIZE_SPECS) {
      const resized = source.clone().resize(spec.width, spec.height, { fit: spec.fit, withoutEnlargement: true });
      sizes[spec.name] = await encode(resized, mimeType);
    }
    return { mimeType, extension: EXTENSION[mimeType], ...original, sizes };
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) throw tooManyPixels(options.maxPixels);
    // A body that breaks the decoder (truncated, corrupt) is the client's file, not a server fault.
    throw new AppError('unsupported_media_type', 'media_unreadable');
  }
}

async function sniffType(bytes: Buffer, accept: readonly MediaType[]): Promise<MediaType> {
  const { fileTypeFromBuffer } = await fileTypeLibrary();
  const detected = (await fileTypeFromBuffer(bytes))?.mime;
  const accepted = accept.find((type) => type === detected);
  if (!accepted) {
    throw new AppError('unsupported_media_type', 'media_type_not_accepted', [], {
      types: accept.map((type) => EXTENSION[type].toUpperCase()).join(', '),
    });
  }
  return accepted;
}

/**
 * Reads only the header: an image too large to decode safely is refused before any pixel is decoded. sharp's
 * own pixel limit (about 268 megapixels) is lifted for this read, which decodes nothing: otherwise a larger
 * image failed here as unreadable (415) instead of too large (413).
 */
async function checkImageHeader(sharp: SharpLibrary, bytes: Buffer, mimeType: ImageType, maxPixels: number): Promise<void> {
  const metadata = await sharp(bytes, { limitInputPixels: false })
    .metadata()
    .catch(() => undefined);
  if (!metadata?.width || !metadata.height || metadata.format !== SHARP_FORMAT[mimeType]) {
    throw new AppError('unsupported_media_type', 'media_unreadable');
  }
  if (metadata.width * metadata.height > maxPixels) throw tooManyPixels(maxPixels);
}

async function encode(pipeline: Sharp, mimeType: ImageType): Promise<EncodedImage> {
  const formatted =
    mimeType === 'image/jpeg' ? pipeline.jpeg({ quality: 85 }) : mimeType === 'image/png' ? pipeline.png() : pipeline.webp({ quality: 85 });
  const { data, info } = await formatted.toBuffer({ resolveWithObject: true });
  return { body: data, width: info.width, height: info.height };
}

function tooManyPixels(maxPixels: number): AppError {
  return new AppError('payload_too_large', 'media_too_many_pixels', [], { limit: maxPixels / 1_000_000 });
}
