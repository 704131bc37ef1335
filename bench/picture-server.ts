import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { type Random, seededRandom } from '../src/lib/random.js';
import type { Cleanups } from './harness.js';

/** A listing photo as agencies' feeds link them: 1600×1200, JPEG at quality 85 (370–420 kB each here). */
const PICTURE_WIDTH = 1600;
const PICTURE_HEIGHT = 1200;
/** Distinct images made; picture n is image n mod this, with bytes of its own (see `pictureBytes`). */
const DISTINCT_IMAGES = 24;

export interface PictureServer {
  /** http://127.0.0.1:<port> */
  base: string;
  /** The URL of picture n: a distinct path per picture. */
  url(n: number): string;
  /** The size of picture n's answer, bytes. */
  size(n: number): number;
}

/**
 * A local HTTP server of listing photos, for the pictures job to fetch: `GET /pictures/<n>.jpg` answers picture n
 * from memory. The images are made here, once (`makeImages`), and every picture's bytes differ from every
 * other's (a JPEG comment naming it, which the re-encoding drops), so that nothing downstream can recognise a
 * picture it has seen. Stopped by `cleanups`.
 */
export async function startPictureServer(cleanups: Cleanups): Promise<PictureServer> {
  const images = await makeImages(DISTINCT_IMAGES);
  const server = http.createServer((request, response) => {
    const match = /^\/pictures\/(\d+)\.jpg$/.exec(request.url ?? '');
    if (request.method !== 'GET' || !match) {
      response.writeHead(404).end();
      return;
    }
    const [head, tail] = pictureBytes(images, Number(match[1]));
    response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': head.length + tail.length });
    response.write(head);
    response.end(tail);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.add(() => {
    const closed = new Promise((resolve) => server.close(resolve));
    server.closeAllConnections();
    return closed;
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    url: (n) => `${base}/pictures/${n}.jpg`,
    size: (n) => pictureBytes(images, n).reduce((sum, part) => sum + part.length, 0),
  };
}

/**
 * Picture n as two buffers sent one after the other: the start-of-image marker with a comment segment naming
 * the picture, then the rest of image n mod count. No copy of the image is made per request.
 */
function pictureBytes(images: readonly Buffer[], n: number): [Buffer, Buffer] {
  const image = images[n % images.length]!;
  const comment = Buffer.from(`realty-api bench picture ${n}`);
  const head = Buffer.alloc(6 + comment.length);
  head.writeUInt16BE(0xffd8, 0); // SOI
  head.writeUInt16BE(0xfffe, 2); // COM, its length counting its own two bytes
  head.writeUInt16BE(comment.length + 2, 4);
  comment.copy(head, 6);
  return [head, image.subarray(2)];
}

/**
 * Photo-like JPEGs, the same on every run (seeded): light and colour varying at three scales, hard-edged
 * blocks (walls, windows), and sensor noise, so that they compress as photos do (about 0.2 bytes a pixel)
 * rather than as flat test cards, and decoding and re-encoding them costs what a real photo's does.
 */
async function makeImages(count: number): Promise<Buffer[]> {
  const images: Buffer[] = [];
  for (let index = 0; index < count; index++) {
    const random = seededRandom(7919 * (index + 1));
    const [coarse, middle, fine] = await Promise.all([16, 160, 800].map((width) => smoothField(width, random)));
    const pixels = Buffer.alloc(PICTURE_WIDTH * PICTURE_HEIGHT * 3);
    for (let i = 0; i < pixels.length; i++) {
      const value = 0.6 * coarse![i]! + 0.25 * middle![i]! + 0.15 * fine![i]! + (random() - 0.5) * 20;
      pixels[i] = value < 0 ? 0 : value > 255 ? 255 : value;
    }
    for (let block = 0; block < 14; block++) drawBlock(pixels, random);
    images.push(
      await sharp(pixels, { raw: { width: PICTURE_WIDTH, height: PICTURE_HEIGHT, channels: 3 } })
        .jpeg({ quality: 85 })
        .toBuffer(),
    );
  }
  return images;
}

/** Random colours on a grid `width` wide, scaled up smoothly to the picture's size: raw RGB. */
function smoothField(width: number, random: Random): Promise<Buffer> {
  const height = (width * PICTURE_HEIGHT) / PICTURE_WIDTH;
  const grid = Buffer.alloc(width * height * 3);
  for (let i = 0; i < grid.length; i++) grid[i] = Math.floor(random() * 256);
  return sharp(grid, { raw: { width, height, channels: 3 } })
    .resize(PICTURE_WIDTH, PICTURE_HEIGHT, { kernel: 'cubic' })
    .raw()
    .toBuffer();
}

/** A flat-coloured rectangle blended over what is there: an edge the encoder has to keep sharp. */
function drawBlock(pixels: Buffer, random: Random): void {
  const width = 40 + Math.floor(random() * 400);
  const height = 40 + Math.floor(random() * 300);
  const left = Math.floor(random() * (PICTURE_WIDTH - width));
  const top = Math.floor(random() * (PICTURE_HEIGHT - height));
  const colour = [random() * 255, random() * 255, random() * 255];
  for (let y = top; y < top + height; y++) {
    for (let x = left; x < left + width; x++) {
      const at = (y * PICTURE_WIDTH + x) * 3;
      for (let channel = 0; channel < 3; channel++) pixels[at + channel] = 0.75 * colour[channel]! + 0.25 * pixels[at + channel]!;
    }
  }
}
