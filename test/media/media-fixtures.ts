import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';

export const API = '/realty-api/v1';

export interface FilePart {
  data: Buffer;
  filename?: string;
  /** The part's Content-Type, as a client claims it. */
  type?: string;
}

/** A multipart/form-data body built by the platform's own encoder (FormData → Response). */
export async function multipart(
  parts: [name: string, value: string | FilePart][],
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [name, value] of parts) {
    if (typeof value === 'string') form.append(name, value);
    else
      form.append(
        name,
        new Blob([new Uint8Array(value.data)], { type: value.type ?? 'application/octet-stream' }),
        value.filename ?? 'upload.bin',
      );
  }
  const response = new Response(form);
  return {
    payload: Buffer.from(await response.arrayBuffer()),
    headers: { 'content-type': response.headers.get('content-type') ?? '' },
  };
}

type Format = 'jpeg' | 'png' | 'webp';

/** A flat-colour image of the given size and format. */
export function image(format: Format, width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#3a7bd5' } })
    .toFormat(format)
    .toBuffer();
}

/** A JPEG carrying EXIF with a camera model and a GPS position, as phones write them. */
export function jpegWithGps(width = 640, height = 480): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#d53a7b' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'PhoneMaker', Model: 'Phone 12' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 2650/100', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 3960/100' },
    })
    .toBuffer();
}

/** A JPEG whose EXIF says "rotate 90° clockwise to display" (phones held upright). */
export function rotatedJpeg(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#7bd53a' } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
);

/** A temporary UPLOAD_DIR for one test file. */
export function tempUploadDir(): { dir: string; files: () => string[]; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'realty-media-'));
  return {
    dir,
    files: () => listFiles(dir),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(path.join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
  );
}

/** The storage key of a URL the API returned (`…/uploads/<key>` or `…/<bucket>/<key>`). */
export function keyOf(url: string, marker: string): string {
  const at = url.indexOf(marker);
  if (at < 0) throw new Error(`${url} does not contain ${marker}`);
  return url.slice(at + marker.length);
}
