// Every format OpenAPI and JSON Schema define generates values the judge accepts (createAjv: ajv with ajv-formats, as
// compile-spec.ts sets it up, a format ajv does not know read as an annotation) and, where ajv checks the format,
// negative values it refuses. Independent oracles (Date, URL, node:net, Buffer, RegExp) where they are cheap, so a
// generator and ajv agreeing on a wrong reading of an RFC is caught too.
import { isIPv4, isIPv6 } from 'node:net';
import { domainToASCII } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../src/core/create-ajv.js';
import {
  formatArbitrary,
  formatBreaks,
  formatSamples,
  generatedFormats,
  uncheckedFormats,
} from '../../src/fuzz/format-arbitrary.js';
import { schemaArbitrary } from '../../src/fuzz/schema-arbitrary.js';
import { boundaryValues, breakingValues, minimalValue } from '../../src/fuzz/values.js';

const issueFormats = [
  'date',
  'date-time',
  'time',
  'duration',
  'email',
  'idn-email',
  'hostname',
  'idn-hostname',
  'ipv4',
  'ipv6',
  'uri',
  'uri-reference',
  'iri',
  'iri-reference',
  'uri-template',
  'uuid',
  'json-pointer',
  'relative-json-pointer',
  'regex',
  'byte',
  'binary',
  'int32',
  'int64',
  'float',
  'double',
  'password',
];
const stringFormats = issueFormats.filter((format) => !['int32', 'int64', 'float', 'double'].includes(format));
const runs = { seed: 43, numRuns: 200 };

// The judge as compile-spec.ts builds it: a format ajv has no check for is an annotation.
const ajv = createAjv();
for (const format of issueFormats) if (!ajv.formats[format]) ajv.addFormat(format, true);
const judge = (schema: Record<string, unknown>) => {
  const validate = ajv.compile(schema);
  return (value: unknown) => validate(value) === true;
};

/** Cheap checks that do not go through ajv, by format: each takes a value the generator calls valid. */
const oracles: Record<string, (value: string) => boolean> = {
  date: (value) => new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value,
  'date-time': (value) => {
    const day = value.slice(0, 10);
    return !Number.isNaN(Date.parse(value)) && new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) === day;
  },
  time: (value) => !Number.isNaN(Date.parse(`2024-01-01T${value}`)),
  ipv4: isIPv4,
  ipv6: isIPv6,
  uri: (value) => URL.canParse(value),
  'uri-reference': (value) => URL.canParse(value, 'http://example.com/base/'),
  iri: (value) => URL.canParse(value),
  'iri-reference': (value) => URL.canParse(value, 'http://example.com/base/'),
  hostname: (value) => domainToASCII(value) === value.toLowerCase(),
  'idn-hostname': (value) => domainToASCII(value) !== '',
  byte: (value) => Buffer.from(value, 'base64').toString('base64') === value,
  regex: (value) => {
    new RegExp(value, 'u');
    return true;
  },
  'json-pointer': (value) =>
    value === '' ||
    value
      .slice(1)
      .split('/')
      .every((token) => !/~[^01]|~$/.test(token)),
  uuid: (value) => /^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(value),
};

describe('format generation', () => {
  it('has a generator for every string format of the issue, and only those', () => {
    expect([...generatedFormats, 'binary', 'password'].sort()).toEqual([...stringFormats].sort());
  });

  it('names as unchecked exactly the formats whose every value ajv accepts', () => {
    const plain = createAjv();
    const accepted = issueFormats.filter(
      (format) => plain.formats[format] === undefined || plain.formats[format] === true,
    );
    // float and double are known with a check that accepts every number.
    expect([...uncheckedFormats].sort()).toEqual([...accepted, 'float', 'double'].sort());
  });

  describe.each(stringFormats)('format %s', (format) => {
    const valid = judge({ type: 'string', format });
    const oracle = oracles[format] ?? (() => true);

    it('generates values ajv and the oracle accept, as a body field and as a header value', () => {
      for (const header of [false, true]) {
        const arbitrary = schemaArbitrary({}, { type: 'string', format }, { header });
        fc.assert(
          fc.property(arbitrary, (value) => {
            expect({ value, valid: valid(value), oracle: oracle(value as string) }).toEqual({
              value,
              valid: true,
              oracle: true,
            });
            if (header) expect(value).toMatch(/^[\x21-\x7e]*$/);
          }),
          runs,
        );
      }
    });

    it('makes its smallest value and its samples valid', () => {
      const values = [minimalValue({}, { type: 'string', format }), ...formatSamples(format)];
      expect(values.map((value) => [value, valid(value)])).toEqual(values.map((value) => [value, true]));
    });

    it('gives a header only edges it can carry: printable ASCII', () => {
      const edges = boundaryValues({}, { type: 'string', format }, true).slice(0, formatSamples(format).length);
      expect(edges.filter((value) => !/^[\x21-\x7e]*$/.test(String(value)))).toEqual([]);
    });

    it('breaks the format only where ajv checks it, and every break is refused', () => {
      const breaks = breakingValues({}, { type: 'string', format }, false).filter((mutation) =>
        mutation.note.startsWith(`format ${format}:`),
      );
      expect(breaks.length > 0).toBe(!uncheckedFormats.has(format));
      expect(breaks.map(({ value }) => [value, valid(value)])).toEqual(breaks.map(({ value }) => [value, false]));
    });
  });

  it.each([
    ['integer', 'int32', -(2 ** 31), 2 ** 31 - 1],
    ['number', 'int32', -(2 ** 31), 2 ** 31 - 1],
    ['integer', 'int64', -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    ['number', 'int64', -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    ['number', 'float', -3.4028234663852886e38, 3.4028234663852886e38],
    ['number', 'double', -Number.MAX_VALUE, Number.MAX_VALUE],
  ])('draws %s values of format %s within its range, all valid', (type, format, min, max) => {
    const valid = judge({ type, format });
    fc.assert(
      fc.property(schemaArbitrary({}, { type, format, minimum: min * 2, maximum: max * 2 }), (value) => {
        const number = value as number;
        expect({ valid: valid(value), within: number >= min && number <= max }).toEqual({ valid: true, within: true });
        if (format.startsWith('int')) expect(Number.isSafeInteger(number)).toBe(true);
      }),
      runs,
    );
  });

  it('breaks int32 and int64 where ajv can tell, and float and double nowhere', () => {
    expect(
      ['int32', 'int64', 'float', 'double'].map((format) => [format, formatBreaks(format, ['integer', 'number'])]),
    ).toEqual([
      [
        'int32',
        [
          { note: 'format int32: 2^31, past the largest', value: 2 ** 31 },
          { note: 'format int32: -2^31-1, past the smallest', value: -(2 ** 31) - 1 },
        ],
      ],
      ['int64', [{ note: 'format int64: not an integer', value: 1.5 }]],
      ['float', []],
      ['double', []],
    ]);
    for (const { value } of formatBreaks('int32', ['integer']))
      expect(judge({ type: 'integer', format: 'int32' })(value)).toBe(false);
    expect(judge({ type: 'number', format: 'int64' })(1.5)).toBe(false);
  });

  it('keeps a pattern over a format, and lengths over a sample that does not fit', () => {
    expect(minimalValue({}, { type: 'string', format: 'date', pattern: '^x$' })).toBe('x');
    expect(minimalValue({}, { type: 'string', format: 'email', minLength: 20 })).toBe('first.last+tag@sub.example.org');
    const sampled = fc.sample(schemaArbitrary({}, { type: 'string', format: 'date', pattern: '^x$' }), runs);
    expect(new Set(sampled)).toEqual(new Set(['x']));
  });

  it('draws plain strings for a format no one defines', () => {
    expect(formatArbitrary('x-colour')).toBeUndefined();
    expect(minimalValue({}, { type: 'string', format: 'x-colour' })).toBe('a');
    expect(breakingValues({}, { type: 'string', format: 'x-colour' }, false)).toEqual([
      { note: 'wrong type (number for string)', value: 123 },
    ]);
  });

  it('reads a format named like an Object.prototype member as unknown', () => {
    expect([formatArbitrary('constructor'), formatSamples('toString'), formatBreaks('__proto__', ['string'])]).toEqual([
      undefined,
      [],
      [],
    ]);
  });
});
