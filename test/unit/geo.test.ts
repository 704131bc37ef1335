import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  boxOfCircle,
  boxOfPolygon,
  distanceKm,
  EARTH_RADIUS_KM,
  inBox,
  inCircle,
  inPolygon,
  type KeyRange,
  keyRangesOfBox,
  keyRangesOfBoxes,
  minimumDot,
  type RadiusCircle,
} from '../../src/modules/search/geo/geo.js';
import { geoKey, unitVector } from '../../src/lib/geo-grid.js';
import type { GeoPoint, SearchBox } from '../../src/modules/search/query/search-types.js';

const located = (latitude: number, longitude: number) => ({ latitude, longitude, geo: unitVector(latitude, longitude) });
const inRanges = (key: number, ranges: readonly KeyRange[]) => ranges.some(([lo, hi]) => key >= lo && key <= hi);

/** The point `km` away from `from` towards `bearing` (degrees from north), on the sphere. */
function destination(from: GeoPoint, km: number, bearing: number): GeoPoint {
  const rad = Math.PI / 180;
  const angle = km / EARTH_RADIUS_KM;
  const lat1 = from.latitude * rad;
  const b = bearing * rad;
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(angle) + Math.cos(lat1) * Math.sin(angle) * Math.cos(b));
  const lng2 =
    from.longitude * rad + Math.atan2(Math.sin(b) * Math.sin(angle) * Math.cos(lat1), Math.cos(angle) - Math.sin(lat1) * Math.sin(lat2));
  const longitude = ((((lng2 / rad + 180) % 360) + 360) % 360) - 180;
  return { latitude: lat2 / rad, longitude };
}

const latitude = fc.double({ min: -90, max: 90, noNaN: true });
const longitude = fc.double({ min: -180, max: 180, noNaN: true });

describe('unit vectors and distances', () => {
  it('puts the axes where they belong', () => {
    const [x, y, z] = unitVector(0, 90);
    expect([x, y, z].map((v) => Math.round(v * 1e12) / 1e12)).toEqual([0, 1, 0]);
    expect(unitVector(0, 0)).toEqual([1, 0, 0]);
    expect(unitVector(90, 0)[2]).toBe(1);
  });

  it('measures great-circle distances', () => {
    // Paris – London by the haversine formula on the same radius: 343.56 km.
    expect(distanceKm({ latitude: 48.8566, longitude: 2.3522 }, { latitude: 51.5074, longitude: -0.1278 })).toBeCloseTo(343.56, 1);
    expect(distanceKm({ latitude: 0, longitude: 179.5 }, { latitude: 0, longitude: -179.5 })).toBeCloseTo(
      (Math.PI / 180) * EARTH_RADIUS_KM,
      6,
    );
    expect(distanceKm({ latitude: 90, longitude: 0 }, { latitude: -90, longitude: 0 })).toBeCloseTo(Math.PI * EARTH_RADIUS_KM, 6);
  });

  it('compares dot products with the cosine of the radius; half the circumference or more holds everything', () => {
    expect(minimumDot(0)).toBe(1);
    expect(minimumDot(EARTH_RADIUS_KM * Math.PI)).toBe(-2);
    expect(minimumDot(50_000)).toBe(-2);
    expect(minimumDot(100)).toBe(Math.cos(100 / EARTH_RADIUS_KM));
  });
});

describe('inCircle', () => {
  const circle: RadiusCircle = { latitude: 48.8566, longitude: 2.3522, radius: 10, unit: 'km' };

  it('admits points within the radius and refuses those beyond', () => {
    expect(inCircle(located(48.8566, 2.3522), circle)).toBe(true);
    expect(inCircle(located(...asPair(destination(circle, 9.999, 30))), circle)).toBe(true);
    expect(inCircle(located(...asPair(destination(circle, 10.001, 30))), circle)).toBe(false);
  });

  it('reads the radius in miles', () => {
    const point = located(...asPair(destination(circle, 15, 200)));
    expect(inCircle(point, { ...circle, radius: 9.4, unit: 'mi' })).toBe(true); // 15.13 km
    expect(inCircle(point, { ...circle, radius: 9.3, unit: 'mi' })).toBe(false); // 14.97 km
  });
});

function asPair(point: GeoPoint): [number, number] {
  return [point.latitude, point.longitude];
}

describe('inBox', () => {
  it('is inclusive on every edge', () => {
    const box: SearchBox = { south: 10, north: 20, west: 30, east: 40 };
    for (const [lat, lng] of [
      [10, 30],
      [20, 40],
      [15, 35],
    ])
      expect(inBox({ latitude: lat!, longitude: lng! }, box)).toBe(true);
    expect(inBox({ latitude: 9.999999, longitude: 35 }, box)).toBe(false);
    expect(inBox({ latitude: 15, longitude: 40.000001 }, box)).toBe(false);
  });

  it('crosses the antimeridian when west is east of east', () => {
    const box: SearchBox = { south: -20, north: -10, west: 170, east: -170 };
    expect(inBox({ latitude: -15, longitude: 175 }, box)).toBe(true);
    expect(inBox({ latitude: -15, longitude: -175 }, box)).toBe(true);
    expect(inBox({ latitude: -15, longitude: 180 }, box)).toBe(true);
    expect(inBox({ latitude: -15, longitude: 0 }, box)).toBe(false);
  });
});

describe('inPolygon', () => {
  // A U opening to the north: the notch between the arms is outside.
  const u: GeoPoint[] = [
    { latitude: 0, longitude: 0 },
    { latitude: 0, longitude: 3 },
    { latitude: 3, longitude: 3 },
    { latitude: 3, longitude: 2 },
    { latitude: 1, longitude: 2 },
    { latitude: 1, longitude: 1 },
    { latitude: 3, longitude: 1 },
    { latitude: 3, longitude: 0 },
  ];

  it('follows a concave outline', () => {
    expect(inPolygon({ latitude: 0.5, longitude: 1.5 }, u)).toBe(true);
    expect(inPolygon({ latitude: 2, longitude: 0.5 }, u)).toBe(true);
    expect(inPolygon({ latitude: 2, longitude: 2.5 }, u)).toBe(true);
    expect(inPolygon({ latitude: 2, longitude: 1.5 }, u)).toBe(false);
    expect(inPolygon({ latitude: 4, longitude: 1.5 }, u)).toBe(false);
    expect(inPolygon({ latitude: 2, longitude: -0.5 }, u)).toBe(false);
  });

  it('counts a ray through a vertex once', () => {
    const diamond: GeoPoint[] = [
      { latitude: 0, longitude: 1 },
      { latitude: 1, longitude: 2 },
      { latitude: 2, longitude: 1 },
      { latitude: 1, longitude: 0 },
    ];
    expect(inPolygon({ latitude: 1, longitude: 1 }, diamond)).toBe(true);
    expect(inPolygon({ latitude: 1, longitude: -1 }, diamond)).toBe(false);
  });

  it('has a bounding box', () => {
    expect(boxOfPolygon(u)).toEqual({ south: 0, north: 3, west: 0, east: 3 });
  });
});

describe('geoKey', () => {
  it('interleaves latitude (odd bits) and longitude (even bits) cells of a 2^20 grid', () => {
    expect(geoKey(-90, -180)).toBe(0);
    expect(geoKey(90, 180)).toBe(2 ** 40 - 1);
    // Cell 2^19 on both axes: bit 19 of the row at bit 39, of the column at bit 38.
    expect(geoKey(0, 0)).toBe(2 ** 39 + 2 ** 38);
    // Row 2^19 + 1 (just north of the equator) on column 0; column 1 on row 0.
    expect(geoKey((180 / 2 ** 20) * 1.5, -180)).toBe(2 ** 39 + 2);
    expect(geoKey(-90, -180 + (360 / 2 ** 20) * 1.5)).toBe(1);
  });

  it('is an integer below 2^40', () => {
    fc.assert(
      fc.property(latitude, longitude, (lat, lng) => {
        const key = geoKey(lat, lng);
        return Number.isSafeInteger(key) && key >= 0 && key < 2 ** 40;
      }),
    );
  });
});

describe('key ranges', () => {
  const box = fc
    .record({
      lat: latitude,
      lng: longitude,
      height: fc.double({ min: 0, max: 30, noNaN: true }),
      width: fc.double({ min: 0, max: 60, noNaN: true }),
    })
    .map(({ lat, lng, height, width }): SearchBox => {
      const west = lng;
      const east = lng + width > 180 ? lng + width - 360 : lng + width;
      return { south: Math.max(-90, lat - height), north: Math.min(90, lat + height), west, east };
    });
  const share = fc.double({ min: 0, max: 1, noNaN: true });

  it('cover every point of the box, in at most maxRanges sorted, separate ranges', () => {
    fc.assert(
      fc.property(box, share, share, fc.integer({ min: 1, max: 40 }), (b, s, t, maxRanges) => {
        const ranges = keyRangesOfBox(b, maxRanges);
        expect(ranges.length).toBeLessThanOrEqual(maxRanges);
        for (let i = 1; i < ranges.length; i++) expect(ranges[i]![0]).toBeGreaterThan(ranges[i - 1]![1] + 1);
        const lat = b.south + (b.north - b.south) * s;
        const width = b.west <= b.east ? b.east - b.west : b.east + 360 - b.west;
        const lngRaw = b.west + width * t;
        const lng = lngRaw > 180 ? lngRaw - 360 : lngRaw;
        for (const [pLat, pLng] of [
          [lat, lng],
          [b.south, b.west],
          [b.north, b.east],
          [b.south, b.east],
          [b.north, b.west],
        ]) {
          expect(inRanges(geoKey(pLat!, pLng!), ranges)).toBe(true);
        }
      }),
    );
  });

  it('stay close to a small box', () => {
    const small: SearchBox = { south: 48.85, north: 48.86, west: 2.34, east: 2.36 };
    const ranges = keyRangesOfBox(small);
    const cells = ranges.reduce((sum, [lo, hi]) => sum + hi - lo + 1, 0);
    // The box spans about 59 × 59 cells (3,500); the ranges may add a margin, not a quadrant.
    expect(ranges.length).toBeLessThanOrEqual(32);
    expect(cells).toBeLessThan(4 * 3_500);
    expect(inRanges(geoKey(48.855, 2.35), ranges)).toBe(true);
    expect(inRanges(geoKey(48.87, 2.35), ranges)).toBe(false);
  });

  it('give the whole key space for the whole world', () => {
    expect(keyRangesOfBoxes([{ south: -90, north: 90, west: -180, east: 180 }])).toEqual([[0, 2 ** 40 - 1]]);
  });
});

describe('boxOfCircle', () => {
  const circle = fc.record({
    latitude,
    longitude,
    radius: fc.double({ min: 0.001, max: 3_000, noNaN: true }),
    unit: fc.constant('km' as const),
  });

  it('holds every point of the circle, the edge included', () => {
    fc.assert(
      fc.property(
        circle,
        fc.double({ min: 0, max: 360, noNaN: true }),
        fc.double({ min: 0.99, max: 1.000001, noNaN: true }),
        (c, bearing, share) => {
          const point = destination(c, c.radius * share, bearing);
          const boxes = boxOfCircle(c);
          expect(boxes.length).toBeLessThanOrEqual(2);
          if (inCircle(located(point.latitude, point.longitude), c)) expect(boxes.some((b) => inBox(point, b))).toBe(true);
        },
      ),
    );
  });

  it('splits at the antimeridian and spans every longitude over a pole', () => {
    const pacific = boxOfCircle({ latitude: -17.7, longitude: 179.9, radius: 50, unit: 'km' });
    expect(pacific).toHaveLength(2);
    expect(pacific[0]!.east).toBe(180);
    expect(pacific[1]!.west).toBe(-180);
    expect(pacific[1]!.east).toBeCloseTo(-179.628, 3);
    const polar = boxOfCircle({ latitude: 89.5, longitude: 10, radius: 100, unit: 'km' });
    expect(polar).toEqual([{ south: expect.closeTo(88.6007, 4), north: 90, west: -180, east: 180 }]);
  });
});
