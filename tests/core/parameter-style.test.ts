// OpenAPI 3.1.0 section 4.8.12.4, "Style Examples": every cell of the table, encoded and decoded, for each location
// that allows its style (path: matrix, label, simple; query: form, spaceDelimited, pipeDelimited, deepObject;
// header: simple; cookie: form). A cell the table marks n/a is not a row.
import { describe, expect, it } from 'vitest';
import {
  cookieText,
  encodeParameter,
  queryText,
  type ParameterLocation,
  type StyledParameter,
} from '../../src/core/parameter-style.js';
import {
  decodeParameter,
  MalformedParameter,
  cookiePairs,
  queryPairs,
  rawQueryPairs,
  reservedInQuery,
} from '../../src/core/parameter-style-decode.js';

const values = {
  empty: '',
  string: 'blue',
  array: ['blue', 'black', 'brown'],
  object: { R: 100, G: 200, B: 150 },
} as const;
type Kind = keyof typeof values;

const schemas: Record<Kind, Record<string, unknown>> = {
  empty: { type: 'string' },
  string: { type: 'string' },
  array: { type: 'array', items: { type: 'string' } },
  object: {
    type: 'object',
    properties: { R: { type: 'integer' }, G: { type: 'integer' }, B: { type: 'integer' } },
  },
};

// style, explode, and the table's cells (empty, string, array, object); undefined where it says n/a.
const table: [string, boolean, (string | undefined)[]][] = [
  ['matrix', false, [';color', ';color=blue', ';color=blue,black,brown', ';color=R,100,G,200,B,150']],
  ['matrix', true, [';color', ';color=blue', ';color=blue;color=black;color=brown', ';R=100;G=200;B=150']],
  ['label', false, ['.', '.blue', '.blue.black.brown', '.R.100.G.200.B.150']],
  ['label', true, ['.', '.blue', '.blue.black.brown', '.R=100.G=200.B=150']],
  ['form', false, ['color=', 'color=blue', 'color=blue,black,brown', 'color=R,100,G,200,B,150']],
  ['form', true, ['color=', 'color=blue', 'color=blue&color=black&color=brown', 'R=100&G=200&B=150']],
  ['simple', false, [undefined, 'blue', 'blue,black,brown', 'R,100,G,200,B,150']],
  ['simple', true, [undefined, 'blue', 'blue,black,brown', 'R=100,G=200,B=150']],
  ['spaceDelimited', false, [undefined, undefined, 'blue%20black%20brown', 'R%20100%20G%20200%20B%20150']],
  ['pipeDelimited', false, [undefined, undefined, 'blue|black|brown', 'R|100|G|200|B|150']],
  ['deepObject', true, [undefined, undefined, undefined, 'color[R]=100&color[G]=200&color[B]=150']],
];

const locations: Record<string, ParameterLocation[]> = {
  matrix: ['path'],
  label: ['path'],
  simple: ['path', 'header'],
  form: ['query', 'cookie'],
  spaceDelimited: ['query'],
  pipeDelimited: ['query'],
  deepObject: ['query'],
};

const kinds: Kind[] = ['empty', 'string', 'array', 'object'];
const rows = table.flatMap(([style, explode, cells]) =>
  locations[style]!.flatMap((location) =>
    kinds.flatMap((kind, index) =>
      cells[index] === undefined ? [] : [{ style, explode, location, kind, cell: cells[index]! }],
    ),
  ),
);

/** The table writes the value alone for the two delimited styles; the pair is `color=` and it (as 3.1.1 shows). */
function wireText(row: { style: string; cell: string }): string {
  return row.style === 'spaceDelimited' || row.style === 'pipeDelimited' ? `color=${row.cell}` : row.cell;
}

/** What a server is given for the cell: the path segment or header as sent, the query's or Cookie header's pairs. */
function wireInput(location: ParameterLocation, cell: string) {
  if (location === 'path' || location === 'header') return cell;
  if (location === 'query') return queryPairs(cell);
  return cookiePairs(cell.split('&').join('; '));
}

describe('the Style Examples table of OpenAPI 3.1.0, both directions', () => {
  it('has a row for each of its 35 cells in each location that allows the style', () => {
    expect(rows.length).toBe(49);
  });

  it.each(rows)('$location $style explode=$explode $kind: encodes to and decodes from $cell', (row) => {
    const param: StyledParameter = { name: 'color', in: row.location, style: row.style, explode: row.explode };
    const encoded = encodeParameter(param, values[row.kind]);
    if (row.location === 'query' || row.location === 'cookie') {
      expect(queryText(encoded as [string, string][])).toBe(wireText(row));
    } else {
      expect(encoded).toBe(row.cell);
    }
    const decoded = decodeParameter({ ...param, schema: schemas[row.kind] }, wireInput(row.location, wireText(row)));
    expect(decoded).toEqual(values[row.kind]);
  });
});

describe('encodeParameter', () => {
  it('applies the defaults of section 4.8.12.2: form and exploded in a query, simple and not in a path', () => {
    expect(encodeParameter({ name: 'ids', in: 'query' }, [1, 2])).toEqual([
      ['ids', '1'],
      ['ids', '2'],
    ]);
    expect(encodeParameter({ name: 'ids', in: 'path' }, [1, 2])).toBe('1,2');
    expect(encodeParameter({ name: 'point', in: 'header' }, { x: 1, y: 2 })).toBe('x,1,y,2');
  });

  it('joins cookie pairs with "; " (RFC 6265 section 4.2.1) and percent-encodes their values as cookie parsers read them', () => {
    const pairs = encodeParameter({ name: 'color', in: 'cookie' }, ['blue', 'dark red;']) as [string, string][];
    expect(cookieText(pairs)).toBe('color=blue; color=dark%20red%3B');
    expect(
      decodeParameter({ name: 'color', in: 'cookie', schema: { type: 'array' } }, cookiePairs(cookieText(pairs))),
    ).toEqual(['blue', 'dark red;']);
  });

  it('percent-encodes reserved characters of a query value unless allowReserved, and & # + % always', () => {
    const value = 'a/b:c?d*e&f#g+h i';
    expect(encodeParameter({ name: 'q', in: 'query' }, value)).toEqual([['q', 'a%2Fb%3Ac%3Fd%2Ae%26f%23g%2Bh+i']]);
    expect(encodeParameter({ name: 'q', in: 'query', allowReserved: true }, value)).toEqual([
      ['q', 'a/b:c?d*e%26f%23g%2Bh+i'],
    ]);
  });

  it('sends nothing for an empty array or object exploded into a query (RFC 6570 section 2.3: undefined)', () => {
    expect(encodeParameter({ name: 'ids', in: 'query' }, [])).toBeUndefined();
    expect(encodeParameter({ name: 'f', in: 'query', style: 'deepObject' }, {})).toBeUndefined();
  });

  it('percent-encodes a path value whole, and a dot inside a label value', () => {
    expect(encodeParameter({ name: 'id', in: 'path' }, 'a/b c')).toBe('a%2Fb%20c');
    expect(encodeParameter({ name: 'v', in: 'path', style: 'label' }, ['1.5', '2'])).toBe('.1%2E5.2');
  });
});

describe('decodeParameter', () => {
  const query = queryPairs;
  const array = { type: 'array', items: { type: 'integer' } };

  it.each([
    ['an empty path value for an array', { name: 'ids', in: 'path' as const, schema: array }, '', []],
    ['an empty header for an object', { name: 'p', in: 'header' as const, schema: { type: 'object' } }, '', {}],
    ['`ids=` for a form array', { name: 'ids', in: 'query' as const, schema: array }, query('ids='), []],
    [
      'a label array in RFC 6570 form',
      { name: 'c', in: 'path' as const, style: 'label', schema: array },
      '.1,2',
      [1, 2],
    ],
    ['header items with spaces after commas', { name: 'h', in: 'header' as const, schema: array }, ' 1, 2 ', [1, 2]],
    [
      'a repeated form list',
      { name: 'ids', in: 'query' as const, explode: false, schema: array },
      query('ids=1,2&ids=3'),
      [1, 2, 3],
    ],
    ['an absent query parameter', { name: 'ids', in: 'query' as const, schema: array }, query('x=1'), undefined],
    [
      'an absent deepObject',
      { name: 'f', in: 'query' as const, style: 'deepObject', schema: {} },
      query('f=1'),
      undefined,
    ],
    [
      'a nested deepObject',
      {
        name: 'f',
        in: 'query' as const,
        style: 'deepObject',
        schema: { type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'integer' } } } } },
      },
      query('f[a][b]=1&f[c]=x'),
      { a: { b: 1 }, c: 'x' },
    ],
    [
      'an exploded form object with additionalProperties, leaving other parameters their names',
      { name: 'free', in: 'query' as const, schema: { type: 'object', additionalProperties: { type: 'integer' } } },
      query('a=1&b=2&page=3'),
      { a: 1, b: 2 },
    ],
    [
      'a form list whose items carry their commas percent-encoded (express-openapi-validator#917)',
      { name: 'f', in: 'query' as const, explode: false, schema: { type: 'array' } },
      query('f=x%3AIN%3A%5B1%2C2%5D,y+z'),
      ['x:IN:[1,2]', 'y z'],
    ],
    [
      'a pipe list with its delimiter encoded',
      { name: 'p', in: 'query' as const, style: 'pipeDelimited', schema: array },
      query('p=1%7C2|3'),
      [1, 2, 3],
    ],
    [
      'a space list with + for its spaces',
      { name: 's', in: 'query' as const, style: 'spaceDelimited', schema: array },
      query('s=1+2%203'),
      [1, 2, 3],
    ],
    [
      'a path item with an encoded comma',
      { name: 'p', in: 'path' as const, schema: { type: 'array' } },
      'a%2Cb,c',
      ['a,b', 'c'],
    ],
    [
      'a boolean and a null item',
      { name: 'x', in: 'path' as const, schema: { type: 'array', items: { type: ['boolean', 'null'] } } },
      'true,null,x',
      [true, null, 'x'],
    ],
  ])('decodes %s', (_name, param, input, want) => {
    expect(decodeParameter(param, input, new Set(['page']))).toEqual(want);
  });

  it.each([
    [
      'a matrix value without its ;name',
      { name: 'c', in: 'path' as const, style: 'matrix', schema: {} },
      'blue',
      'blue',
    ],
    ['a label value without its dot', { name: 'c', in: 'path' as const, style: 'label', schema: {} }, 'blue', 'blue'],
    ['an object missing a value', { name: 'c', in: 'path' as const, schema: { type: 'object' } }, 'R,100,G', 'R,100,G'],
    [
      'an exploded matrix array naming another',
      { name: 'c', in: 'path' as const, style: 'matrix', explode: true, schema: array },
      ';c=1;d=2',
      ';c=1;d=2',
    ],
  ])('says %s is malformed', (_name, param: StyledParameter & { schema: Record<string, unknown> }, input, text) => {
    expect(decodeParameter(param, input)).toEqual(new MalformedParameter(param.style ?? 'simple', text));
  });

  it('decodes a query of a million characters in one pass', () => {
    const text = `ids=${Array.from({ length: 200_000 }, (_, index) => index % 1000).join(',')}`;
    const started = performance.now();
    const decoded = decodeParameter({ name: 'ids', in: 'query', explode: false, schema: array }, query(text));
    expect((decoded as number[]).length).toBe(200_000);
    // Quadratic work on 200,000 items would take minutes; a generous bound keeps a loaded machine from failing it.
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

describe('reservedInQuery', () => {
  const param = { name: 'q', in: 'query' as const, schema: { type: 'string' } };

  it.each([
    ['a raw slash', 'q=a/b', '/'],
    ['a raw comma in a string', 'q=a,b', ','],
    ['a raw = inside the value', 'q=a=b', '='],
    ['nothing percent-encoded', 'q=a%2Fb', undefined],
    ['nothing for a + (a space in a form-urlencoded query)', 'q=a+b', undefined],
    ['nothing for another parameter', 'x=a/b&q=1', undefined],
  ])('finds %s', (_name, text, want) => {
    expect(reservedInQuery(param, rawQueryPairs(text))).toBe(want);
  });

  it('takes the comma of a form list as its delimiter, and allowReserved as leave to send them raw', () => {
    const list = { name: 'ids', in: 'query' as const, explode: false, schema: { type: 'array' } };
    expect(reservedInQuery(list, rawQueryPairs('ids=a,b'))).toBeUndefined();
    expect(reservedInQuery(list, rawQueryPairs('ids=a,b:c'))).toBe(':');
    expect(reservedInQuery({ ...param, allowReserved: true }, rawQueryPairs('q=a/b'))).toBeUndefined();
  });

  it('looks at the values of a deepObject, not at the brackets of its names', () => {
    const deep = { name: 'f', in: 'query' as const, style: 'deepObject', schema: { type: 'object' } };
    expect(reservedInQuery(deep, rawQueryPairs('f[a]=1&f%5Bb%5D=2'))).toBeUndefined();
    expect(reservedInQuery(deep, rawQueryPairs('f[a]=1@2'))).toBe('@');
  });
});
