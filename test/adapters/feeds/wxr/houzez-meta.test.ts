import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  additionalFeaturesOf,
  areaNumberOf,
  areaOf,
  FieldError,
  floorPlansOf,
  numberOf,
  virtualTourOf,
} from '../../../../src/adapters/feeds/wxr/houzez-meta.js';
import { featureRows, item, phpString, read, wxr } from './wxr-test-helpers.js';

describe('numberOf', () => {
  it.each([
    ['250000', 250000],
    ['1,200', 1200],
    ['1,495,000.50', 1495000.5],
    [' 1 350 000 ', 1350000],
    ['2.5', 2.5],
    ['-4.8824', -4.8824],
    ['.5', 0.5],
    ['', null],
    ['   ', null],
  ])('reads %j as %j', (text, expected) => {
    expect(numberOf(text, 'price')).toBe(expected);
  });

  it.each([
    ['1.200,50', 1200.5],
    ['€250000', 250000],
    ['250.000 €', 250000],
    ['From 1,200', 1200],
  ])('reads %j, as people type prices, as %j', (text, expected) => {
    expect(numberOf(text, 'price')).toBe(expected);
  });

  it.each(['call us', '0x10', '1e3', 'Infinity', '--1'])('refuses %j', (text) => {
    expect(() => numberOf(text, 'price')).toThrow(new FieldError('price', 'must be of type number'));
  });

  it('refuses an area where a count or a price belongs, and a price where an area does', () => {
    expect(() => numberOf('3 m²', 'bedrooms')).toThrow(new FieldError('bedrooms', 'must be of type number (an area where none belongs)'));
    expect(() => areaNumberOf('€120', 'size')).toThrow(new FieldError('size', 'must be of type number (a price where an area belongs)'));
  });

  it('reads any integer written with thousands commas', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (n) => {
        expect(numberOf(n.toLocaleString('en-US'), 'price')).toBe(n);
      }),
    );
  });
});

describe('areaOf', () => {
  it.each([
    ['Sq Ft', 'sqft', 100],
    ['sqft', 'sqft', 100],
    ['ft2', 'sqft', 100],
    ['sq. ft.', 'sqft', 100],
    ['m²', 'm2', 100],
    ['M2', 'm2', 100],
    ['sqm', 'm2', 100],
    ['sq m', 'm2', 100],
    ['Acres', 'sqft', 4356000],
    ['ha', 'm2', 1000000],
  ] as const)('reads %j as %s', (unit, expectedUnit, expectedValue) => {
    expect(areaOf({ value: 100 }, unit)).toEqual({ value: expectedValue, unit: expectedUnit });
  });

  it('leaves the unit out for one the API has no unit for, and the number as written', () => {
    expect(areaOf({ value: 100 }, 'tsubo')).toEqual({ value: 100 });
    expect(areaOf({ value: 100 }, '')).toEqual({ value: 100 });
    expect(areaOf({ value: null }, 'Acres')).toEqual({ value: null, unit: 'sqft' });
  });

  it('takes the unit written with the number before the one beside it', () => {
    expect(areaOf(areaNumberOf('497 m²', 'size'), 'Sq Ft')).toEqual({ value: 497, unit: 'm2' });
    expect(areaOf(areaNumberOf('1,200 Sq Ft', 'size'), '')).toEqual({ value: 1200, unit: 'sqft' });
    expect(areaOf(areaNumberOf('0.5 ac', 'land_size'), '')).toEqual({ value: 21780, unit: 'sqft' });
    expect(areaOf(areaNumberOf('1.200', 'size'), 'm²')).toEqual({ value: 1200, unit: 'm2' });
  });
});

describe('virtualTourOf', () => {
  it('keeps an http(s) URL and drops anything else', () => {
    expect(virtualTourOf('https://my.matterport.com/show/?m=xyz')).toBe('https://my.matterport.com/show/?m=xyz');
    expect(virtualTourOf('javascript:alert(1)')).toBe('');
    expect(virtualTourOf('<iframe src="javascript:alert(1)"></iframe>')).toBe('');
    expect(virtualTourOf(`<iframe src="https://x.example/${'a'.repeat(10_000)}"></iframe>`)).toBe('');
  });

  it("takes an embed code's iframe address", () => {
    expect(virtualTourOf('<iframe src="https://my.matterport.com/show/?m=xyz&amp;play=1"></iframe>')).toBe(
      'https://my.matterport.com/show/?m=xyz&play=1',
    );
    expect(virtualTourOf("<iframe width='100%' data-x=\"1\" src='https://kuula.co/share/abc'></iframe>")).toBe(
      'https://kuula.co/share/abc',
    );
  });
});

describe('PHP-serialized meta', () => {
  it('counts string lengths in UTF-8 bytes, as WordPress writes them', () => {
    expect(
      additionalFeaturesOf(
        featureRows([
          ['Orientación', 'Sur'],
          ['Año', 'ñandú 🏠'],
        ]),
      ),
    ).toEqual([
      { title: 'Orientación', value: 'Sur' },
      { title: 'Año', value: 'ñandú 🏠' },
    ]);
  });

  it('reads back any text, quotes and semicolons included', () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 40 });
    fc.assert(
      fc.property(fc.array(fc.tuple(text, text), { maxLength: 5 }), (rows) => {
        const expected = rows
          .map(([title, value]) => ({ title: title.trim(), value: value.trim() }))
          .filter((row) => row.title !== '' || row.value !== '');
        expect(additionalFeaturesOf(featureRows(rows))).toEqual(expected);
      }),
    );
  });

  it('reads a PHP array whose keys are not 0…n-1, in key order', () => {
    const plans = `a:2:{i:3;a:1:{${phpString('fave_plan_title')}${phpString('B')}}i:1;a:1:{${phpString('fave_plan_title')}${phpString('A')}}}`;
    expect(floorPlansOf(plans).map((plan) => plan.title)).toEqual(['A', 'B']);
  });

  it('reads plans whose figures are free text: sizes with units, prices with symbols, bathrooms with a decimal', () => {
    const row = (fields: Record<string, string>) =>
      `a:${Object.keys(fields).length}:{${Object.entries(fields)
        .map(([key, value]) => phpString(key) + phpString(value))
        .join('')}}`;
    const plans = `a:3:{i:0;${row({ fave_plan_title: 'A', fave_plan_size: '497 m²', fave_plan_price: '€250.000', fave_plan_bathrooms: '1.5' })}i:1;${row({ fave_plan_title: 'B', fave_plan_size: '1,200 Sq Ft', fave_plan_size_postfix: '' })}i:2;${row({ fave_plan_title: 'C', fave_plan_size: '80 m²', fave_plan_size_postfix: 'm² útiles' })}}`;
    expect(floorPlansOf(plans)).toMatchObject([
      { title: 'A', size: 497, size_postfix: 'm²', price: 250000, bathrooms: 1.5 },
      { title: 'B', size: 1200, size_postfix: 'sq ft', price: null },
      { title: 'C', size: 80, size_postfix: 'm² útiles' },
    ]);
  });

  it('reads integers and floats PHP stored as numbers', () => {
    const plans = `a:1:{i:0;a:3:{${phpString('fave_plan_title')}${phpString('P')}${phpString('fave_plan_rooms')}i:4;${phpString('fave_plan_size')}d:45.5;}}`;
    expect(floorPlansOf(plans)).toMatchObject([{ title: 'P', rooms: 4, size: 45.5, price: null }]);
  });
});

describe('PHP-serialized meta never makes an object of a class', () => {
  const constructed: string[] = [];
  class Evil {
    constructor() {
      constructed.push('Evil');
    }
    // A gadget: what a deserializer that calls methods by name would run.
    unserialize() {
      constructed.push('Evil.unserialize');
    }
  }
  const globals = globalThis as Record<string, unknown>;
  afterEach(() => {
    delete globals.Evil;
    constructed.length = 0;
  });

  it.each([
    ['a plain class', 'O:8:"stdClass":1:{s:1:"a";i:1;}'],
    ['a class inside a row', 'a:1:{i:0;O:4:"Evil":1:{s:7:"command";s:5:"rm -r";}}'],
    ['a Serializable class', 'a:1:{i:0;C:4:"Evil":6:{rm -rf}}'],
    // Names an empty object literal would answer from Object.prototype.
    ['"constructor"', 'a:1:{i:0;O:11:"constructor":1:{s:1:"a";i:1;}}'],
    ['"__proto__"', 'a:1:{i:0;O:9:"__proto__":0:{}}'],
    ['"toString"', 'a:1:{i:0;O:8:"toString":0:{}}'],
  ])('refuses %s', async (_name, serialized) => {
    globals.Evil = Evil;
    for (const read of [additionalFeaturesOf, floorPlansOf]) {
      expect(() => read(serialized)).toThrow(FieldError);
      expect(() => read(serialized)).toThrow('is not a valid PHP-serialized array');
    }
    expect(constructed).toEqual([]);
  });

  it('leaves an object in a property out with a warning, and reads on', async () => {
    globals.Evil = Evil;
    const gadget = 'a:1:{i:0;O:4:"Evil":1:{s:7:"command";s:5:"rm -r";}}';
    const records = await read(wxr([item('1', 'property', { meta: { additional_features: gadget } }), item('2', 'property')].join('\n')));
    expect(records.map((record) => record.kind)).toEqual(['listing', 'listing']);
    expect(records[0]).toMatchObject({
      listing: { additional_features: undefined },
      warnings: [{ field: 'additional_features', reason: 'is not a valid PHP-serialized array' }],
    });
    expect(constructed).toEqual([]);
  });

  it('gives plain data for a "__proto__" key, without touching Object.prototype', () => {
    const rows = `a:1:{i:0;a:2:{${phpString('__proto__')}a:1:{${phpString('fave_additional_feature_title')}${phpString('injected')}}${phpString('fave_additional_feature_value')}${phpString('x')}}}`;
    expect(additionalFeaturesOf(rows)).toEqual([{ title: '', value: 'x' }]);
    expect(({} as Record<string, unknown>).fave_additional_feature_title).toBeUndefined();
  });
});
