import sharp from 'sharp';
import type { FileStorage } from '../adapters/storage/storage.js';
import { IMAGE_TYPES, processUpload, IMAGE_SIZES, type StoredSizes, newStorageKeys } from '../modules/media/index.js';

/**
 * The pictures of the demo listings: a few illustrations drawn here (SVG rendered by sharp, no files or
 * downloads), stored once per seed through the configured storage with the same keys and sizes as an
 * upload (media.service.ts). Every demo gallery shares these files: a media row per listing, one stored
 * copy per picture.
 */

type ImageUse = 'residential' | 'commercial' | 'land';

export interface DemoImage {
  title: string;
  uses: readonly ImageUse[];
  storageKey: string;
  mimeType: 'image/jpeg';
  width: number;
  height: number;
  sizeBytes: number;
  /** `media.sizes` JSON. */
  sizes: string;
}

const WIDTH = 1200;
const HEIGHT = 800;

interface Scene {
  title: string;
  uses: readonly ImageUse[];
  svg: string;
}

const svg = (defs: string, body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}"><defs>${defs}</defs>${body}</svg>`;

const vertical = (id: string, ...stops: string[]) =>
  `<linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1">${stops.map((colour, i) => `<stop offset="${i / (stops.length - 1)}" stop-color="${colour}"/>`).join('')}</linearGradient>`;

const glow = (id: string, colour: string) =>
  `<radialGradient id="${id}"><stop offset="0" stop-color="${colour}" stop-opacity="0.9"/><stop offset="1" stop-color="${colour}" stop-opacity="0"/></radialGradient>`;

/** A rounded tree: trunk and three overlapping crowns. */
const tree = (x: number, y: number, scale: number, colour: string) =>
  `<rect x="${x - 6 * scale}" y="${y - 40 * scale}" width="${12 * scale}" height="${40 * scale}" fill="#6b4a32"/>` +
  `<circle cx="${x}" cy="${y - 70 * scale}" r="${38 * scale}" fill="${colour}"/>` +
  `<circle cx="${x - 26 * scale}" cy="${y - 50 * scale}" r="${26 * scale}" fill="${colour}"/>` +
  `<circle cx="${x + 26 * scale}" cy="${y - 50 * scale}" r="${26 * scale}" fill="${colour}"/>`;

/** A window with a sky behind it. */
const window = (x: number, y: number, w: number, h: number) =>
  `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="url(#pane)" stroke="#ffffff" stroke-width="8"/>` +
  `<line x1="${x + w / 2}" y1="${y}" x2="${x + w / 2}" y2="${y + h}" stroke="#ffffff" stroke-width="6"/>`;

/** Lit windows of a tower, in a fixed pattern so that every run draws the same skyline. */
function tower(x: number, width: number, top: number, base: number, colour: string): string {
  let lights = '';
  for (let row = top + 18; row < base - 20; row += 26) {
    for (let column = x + 10; column < x + width - 14; column += 20) {
      if ((row * 7 + column * 3) % 5 < 3) lights += `<rect x="${column}" y="${row}" width="9" height="12" fill="#ffd88a" opacity="0.85"/>`;
    }
  }
  return `<rect x="${x}" y="${top}" width="${width}" height="${base - top}" fill="${colour}"/>${lights}`;
}

const SCENES: readonly Scene[] = [
  {
    title: 'Front view',
    uses: ['residential'],
    svg: svg(
      vertical('sky', '#5fa8e6', '#d9efff') +
        vertical('lawn', '#86c96f', '#4d9443') +
        vertical('pane', '#bfe3fb', '#7fb8e0') +
        glow('sun', '#fff3b0'),
      `<rect width="1200" height="800" fill="url(#sky)"/><circle cx="990" cy="150" r="150" fill="url(#sun)"/><circle cx="990" cy="150" r="60" fill="#fff6c8"/>` +
        `<path d="M0 560 Q250 470 520 540 T1200 520 V800 H0 Z" fill="#a9d59c"/><rect y="600" width="1200" height="200" fill="url(#lawn)"/>` +
        `<rect x="380" y="360" width="440" height="260" fill="#f5efe4"/><polygon points="345,372 600,215 855,372" fill="#b5533c"/>` +
        `<rect x="568" y="478" width="72" height="142" rx="4" fill="#6b4a3a"/>${window(420, 420, 110, 86)}${window(670, 420, 110, 86)}` +
        `<polygon points="568,620 640,620 700,800 508,800" fill="#dccaa6"/>` +
        `<circle cx="400" cy="612" r="34" fill="#3f8a3a"/><circle cx="800" cy="612" r="34" fill="#3f8a3a"/>${tree(200, 620, 1.6, '#4f9d48')}${tree(1040, 630, 1.9, '#458f3f')}`,
    ),
  },
  {
    title: 'Pool and terrace',
    uses: ['residential'],
    svg: svg(
      vertical('sky', '#f59a6b', '#ffd3a0', '#fcebd0') +
        vertical('water', '#5fd0e6', '#1b8db3') +
        vertical('pane', '#37536a', '#22384a') +
        glow('sun', '#ffe2a8'),
      `<rect width="1200" height="800" fill="url(#sky)"/><circle cx="260" cy="330" r="190" fill="url(#sun)"/><circle cx="260" cy="330" r="70" fill="#ffe9bd"/>` +
        `<rect x="540" y="250" width="560" height="270" fill="#f6f2ea"/><rect x="480" y="190" width="680" height="60" fill="#ece6da"/>` +
        `<rect x="580" y="300" width="220" height="190" fill="url(#pane)"/><rect x="830" y="300" width="230" height="190" fill="url(#pane)"/>` +
        `<rect y="520" width="1200" height="280" fill="#c9a277"/><polygon points="120,600 1080,600 1160,760 40,760" fill="url(#water)"/>` +
        `<path d="M160 640 Q400 620 640 650 T1060 640" stroke="#ffffff" stroke-opacity="0.45" stroke-width="6" fill="none"/>` +
        `<path d="M120 700 Q420 680 700 710 T1120 700" stroke="#ffffff" stroke-opacity="0.35" stroke-width="6" fill="none"/>` +
        `<rect x="90" y="410" width="16" height="190" fill="#7a5634"/><ellipse cx="98" cy="405" rx="90" ry="22" fill="#3d7f45" transform="rotate(-18 98 405)"/>` +
        `<ellipse cx="98" cy="405" rx="90" ry="22" fill="#478f4f" transform="rotate(22 98 405)"/>`,
    ),
  },
  {
    title: 'Living room',
    uses: ['residential', 'commercial'],
    svg: svg(
      vertical('wall', '#f3ebdf', '#e4d6c3') +
        vertical('floor', '#c29464', '#9c6f45') +
        vertical('pane', '#9ed3f5', '#e6f5ff') +
        glow('lamp', '#ffe4a3'),
      `<rect width="1200" height="800" fill="url(#wall)"/><rect y="600" width="1200" height="200" fill="url(#floor)"/>` +
        `${window(690, 140, 380, 330)}<ellipse cx="560" cy="700" rx="360" ry="60" fill="#ddd2c2"/>` +
        `<rect x="230" y="460" width="560" height="150" rx="30" fill="#56798f"/><rect x="230" y="400" width="560" height="110" rx="30" fill="#628aa2"/>` +
        `<rect x="270" y="420" width="120" height="90" rx="18" fill="#e9c27f"/><rect x="620" y="420" width="120" height="90" rx="18" fill="#e9c27f"/>` +
        `<ellipse cx="560" cy="660" rx="140" ry="26" fill="#3b3b3b"/><circle cx="150" cy="300" r="120" fill="url(#lamp)"/>` +
        `<line x1="150" y1="300" x2="150" y2="600" stroke="#444" stroke-width="6"/><circle cx="150" cy="300" r="34" fill="#ffe9b8"/>` +
        `<rect x="1040" y="520" width="70" height="80" fill="#b4734a"/><circle cx="1075" cy="480" r="60" fill="#4e8f4b"/><circle cx="1045" cy="440" r="40" fill="#5aa356"/>`,
    ),
  },
  {
    title: 'Kitchen',
    uses: ['residential'],
    svg: svg(
      vertical('wall', '#fbfaf7', '#ecebe6') +
        vertical('pane', '#a8dcf7', '#e9f7ff') +
        glow('light', '#ffd98a') +
        `<pattern id="tiles" width="40" height="24" patternUnits="userSpaceOnUse"><rect width="40" height="24" fill="#e7eef0"/><rect width="38" height="22" fill="#d2e2e6"/></pattern>`,
      `<rect width="1200" height="800" fill="url(#wall)"/><rect y="700" width="1200" height="100" fill="#cdbfae"/>` +
        `<rect x="80" y="330" width="1040" height="130" fill="url(#tiles)"/><rect x="80" y="110" width="1040" height="200" fill="#2f4f55"/>` +
        `${window(470, 130, 260, 170)}<rect x="60" y="460" width="1080" height="24" fill="#e3ddd3"/><rect x="80" y="484" width="1040" height="216" fill="#2f4f55"/>` +
        `<rect x="330" y="560" width="540" height="30" fill="#e8e2d8"/><rect x="350" y="590" width="500" height="160" fill="#39606a"/>` +
        [380, 600, 820]
          .map(
            (x) =>
              `<line x1="${x}" y1="0" x2="${x}" y2="380" stroke="#333" stroke-width="3"/><circle cx="${x}" cy="400" r="90" fill="url(#light)"/><path d="M${x - 34} 400 Q${x} 350 ${x + 34} 400 Z" fill="#222"/>`,
          )
          .join(''),
    ),
  },
  {
    title: 'Bedroom',
    uses: ['residential'],
    svg: svg(
      vertical('wall', '#e3ebf2', '#cfdbe6') + vertical('pane', '#ffd9b0', '#ffeedd') + glow('lamp', '#ffe0a0'),
      `<rect width="1200" height="800" fill="url(#wall)"/><rect y="620" width="1200" height="180" fill="#cbb59b"/>` +
        `${window(820, 130, 260, 300)}<rect x="790" y="110" width="40" height="360" fill="#a6b9cf"/><rect x="1070" y="110" width="40" height="360" fill="#a6b9cf"/>` +
        `<rect x="250" y="300" width="500" height="240" rx="20" fill="#8c6f5a"/><rect x="220" y="470" width="560" height="160" rx="16" fill="#ffffff"/>` +
        `<rect x="220" y="530" width="560" height="110" rx="16" fill="#7ea6ca"/><rect x="280" y="420" width="180" height="70" rx="26" fill="#f4f1ec"/>` +
        `<rect x="540" y="420" width="180" height="70" rx="26" fill="#f4f1ec"/><rect x="90" y="500" width="110" height="130" fill="#a98a6e"/>` +
        `<circle cx="145" cy="430" r="110" fill="url(#lamp)"/><path d="M110 470 L180 470 L165 420 L125 420 Z" fill="#f7e6c4"/>`,
    ),
  },
  {
    title: 'City view',
    uses: ['residential', 'commercial'],
    svg: svg(
      vertical('sky', '#0e2240', '#3a5c8c', '#f2a96b') + vertical('water', '#2b4d78', '#0d1f38'),
      `<rect width="1200" height="800" fill="url(#sky)"/><rect y="600" width="1200" height="200" fill="url(#water)"/>` +
        [
          [30, 110, 330, '#1b2b44'],
          [150, 90, 250, '#22344f'],
          [250, 130, 180, '#1a2940'],
          [390, 80, 300, '#23365a'],
          [480, 150, 120, '#1c2c47'],
          [640, 100, 260, '#203251'],
          [750, 120, 200, '#1a2a44'],
          [880, 90, 330, '#22365a'],
          [980, 140, 230, '#1b2b45'],
          [1110, 90, 290, '#203250'],
        ]
          .map(([x, w, top, colour]) => tower(x as number, w as number, top as number, 600, colour as string))
          .join('') +
        `<path d="M0 640 H1200" stroke="#f2a96b" stroke-opacity="0.4" stroke-width="3"/><path d="M100 690 H500 M650 720 H1100" stroke="#ffd88a" stroke-opacity="0.25" stroke-width="4"/>`,
    ),
  },
  {
    title: 'Open land',
    uses: ['land'],
    svg: svg(
      vertical('sky', '#7fb9ea', '#eaf5ff') + vertical('field', '#b9d76c', '#7fa843') + glow('sun', '#fff2b8'),
      `<rect width="1200" height="800" fill="url(#sky)"/><circle cx="240" cy="170" r="140" fill="url(#sun)"/>` +
        `<path d="M0 430 Q300 330 620 420 T1200 380 V800 H0 Z" fill="#9cc38a"/><path d="M0 520 Q400 440 800 520 T1200 500 V800 H0 Z" fill="url(#field)"/>` +
        `<path d="M0 640 Q600 580 1200 650" stroke="#d8c38f" stroke-width="26" fill="none"/>` +
        [60, 220, 380, 540, 700, 860, 1020, 1180].map((x) => `<rect x="${x}" y="690" width="10" height="70" fill="#8a6a48"/>`).join('') +
        `<path d="M0 705 H1200 M0 735 H1200" stroke="#8a6a48" stroke-width="5"/>${tree(930, 470, 1.2, '#5d9a4c')}${tree(1010, 480, 0.9, '#4f8c40')}`,
    ),
  },
];

/** Renders, processes and stores every demo picture; the files are written once per call. */
export async function createDemoImages(storage: FileStorage, now: Date = new Date()): Promise<DemoImage[]> {
  return Promise.all(SCENES.map((scene) => storeScene(scene, storage, now)));
}

async function storeScene(scene: Scene, storage: FileStorage, now: Date): Promise<DemoImage> {
  return { title: scene.title, uses: scene.uses, ...(await storeSvg(scene.svg, storage, now)) };
}

export type StoredPicture = Omit<DemoImage, 'title' | 'uses'>;

/** Renders an SVG drawing and stores it as an upload would be stored: re-encoded original and its sizes. */
export async function storeSvg(drawing: string, storage: FileStorage, now: Date): Promise<StoredPicture> {
  const rendered = await sharp(Buffer.from(drawing)).jpeg({ quality: 90 }).toBuffer();
  // The upload pipeline gives the demo pictures exactly the shape of an upload: re-encoded original and sizes.
  const processed = await processUpload(rendered, { accept: IMAGE_TYPES, maxPixels: WIDTH * HEIGHT });
  const keys = newStorageKeys(processed.extension, now);
  const sizes: StoredSizes = {};
  const writes = [storage.put(keys.original, processed.body, processed.mimeType)];
  for (const name of IMAGE_SIZES) {
    const image = processed.sizes[name];
    if (!image) continue;
    sizes[name] = { key: keys.size(name), width: image.width, height: image.height };
    writes.push(storage.put(keys.size(name), image.body, processed.mimeType));
  }
  await Promise.all(writes);
  return {
    storageKey: keys.original,
    mimeType: 'image/jpeg',
    width: processed.width ?? WIDTH,
    height: processed.height ?? HEIGHT,
    sizeBytes: processed.body.length,
    sizes: JSON.stringify(sizes),
  };
}
