import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
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

/**
 * A PNG whose header (IHDR) says `width`×`height` but whose pixel data is a few bytes that decode to
 * nothing: anything that reads past the header fails on it, so an answer about its size came from the header.
 */
export function pngHeaderOnly(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, RGB, deflate, no filter, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(16))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
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

/** A multipart body written by hand, boundary `b0undary`: each part's header lines, then its content. */
export function handWrittenForm(parts: { headers: string[]; content: string | Buffer }[]): {
  payload: Buffer;
  headers: Record<string, string>;
} {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--b0undary\r\n${part.headers.join('\r\n')}\r\n\r\n`), Buffer.from(part.content), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from('--b0undary--\r\n'));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': 'multipart/form-data; boundary=b0undary' } };
}
