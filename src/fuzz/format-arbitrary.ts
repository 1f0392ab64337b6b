// Values for every `format` OpenAPI (3.1 §4.8.5.1, "Data Type Format") and JSON Schema 2020-12 (Validation §7.3)
// define: valid ones per the defining RFC, for positive cases, and invalid ones, for negative cases. Without this a
// `format: date` field got "a", the validators refused every request that carried it, and the operation went
// untested. Valid values satisfy both the RFC and ajv-formats (the judge, create-ajv.ts); invalid ones exist only for
// the formats ajv-formats checks (see `uncheckedFormats`): a value ajv accepts is never a negative case.
import fc from 'fast-check';

/** One invalid value and, for a person, how it breaks the format. */
export interface FormatBreak {
  note: string;
  value: string;
}

interface StringFormat {
  /** Valid values; `ascii`: only printable ASCII without spaces (a header value), still valid. */
  valid: (ascii: boolean) => fc.Arbitrary<string>;
  /** Fixed valid values, the plainest first: the smallest request's value, then the edges worth trying. */
  samples: readonly string[];
  /** Values ajv-formats refuses, each breaking the format alone; empty for a format it does not check. */
  invalid: readonly FormatBreak[];
}

/**
 * Formats ajv-formats knows but accepts every value of (`password`, `binary`: any string; `float`, `double`: any
 * number), and those it does not know at all (`iri`, `iri-reference`, `idn-email`, `idn-hostname`: annotations,
 * compile-spec.ts `unknownFormats`). No value breaks them as the judge sees it, so they have no negative cases.
 */
export const uncheckedFormats: ReadonlySet<string> = new Set([
  'password',
  'binary',
  'float',
  'double',
  'iri',
  'iri-reference',
  'idn-email',
  'idn-hostname',
]);

/** A generator built on first use: fast-check builds some (webUrl's) in seconds, and every command imports this. */
const lazy = <T>(make: () => T): (() => T) => {
  let made: T | undefined;
  return () => (made ??= make());
};

const digits = (value: number, width: number) => String(value).padStart(width, '0');
const leapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
const monthDays = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const daysIn = (year: number, month: number) => (month === 2 && leapYear(year) ? 29 : monthDays[month - 1]!);

/** RFC 3339 §5.6 full-date; a day past the month's end becomes its last day, so month ends come often. Years
 * 1900-2199 hold the three leap-year rules (1900 and 2100 are not leap years, 2000 is). */
const fullDate = lazy(() =>
  fc
    .tuple(fc.integer({ min: 1900, max: 2199 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }))
    .map(([year, month, day]) => `${year}-${digits(month, 2)}-${digits(Math.min(day, daysIn(year, month)), 2)}`),
);
const leapDays = lazy(() => fc.constantFrom('2000-02-29', '2024-02-29', '1904-02-29', '2196-02-29'));
const date = lazy(() => fc.oneof({ arbitrary: fullDate(), weight: 4 }, { arbitrary: leapDays(), weight: 1 }));

/** RFC 3339 §5.6 full-time: partial-time and a time-offset (`Z` or ±hh:mm). No leap second: `:60` is valid only at
 * the end of a UTC day a leap second was inserted, which a generator cannot know. */
const fullTime = lazy(() =>
  fc
    .tuple(
      fc.integer({ min: 0, max: 23 }),
      fc.integer({ min: 0, max: 59 }),
      fc.integer({ min: 0, max: 59 }),
      fc.option(fc.integer({ min: 0, max: 999_999 }), { nil: undefined }),
      fc.option(fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })), {
        nil: undefined,
      }),
    )
    .map(([hour, minute, second, fraction, offset]) => {
      const partial = `${digits(hour, 2)}:${digits(minute, 2)}:${digits(second, 2)}`;
      const secfrac = fraction === undefined ? '' : `.${digits(fraction, 6).replace(/0+$/, '') || '0'}`;
      const zone = offset === undefined ? 'Z' : `${offset[0]}${digits(offset[1], 2)}:${digits(offset[2], 2)}`;
      return `${partial}${secfrac}${zone}`;
    }),
);

/** RFC 3339 Appendix A: units in order with none skipped (dur-year = Y [dur-month], …), a time part, or weeks. */
const runOf = (units: readonly string[]) =>
  fc
    .tuple(
      fc.integer({ min: 0, max: units.length - 1 }),
      fc.integer({ min: 1, max: units.length }),
      fc.array(fc.nat(99)),
    )
    .map(([from, count, numbers]) =>
      units
        .slice(from, from + count)
        .map((unit, index) => `${numbers[index] ?? index + 1}${unit}`)
        .join(''),
    );
const duration = lazy(() =>
  fc.oneof(
    fc
      .tuple(runOf(['Y', 'M', 'D']), fc.option(runOf(['H', 'M', 'S']), { nil: undefined }))
      .map(([dateRun, timeRun]) => `P${dateRun}${timeRun === undefined ? '' : `T${timeRun}`}`),
    runOf(['H', 'M', 'S']).map((timeRun) => `PT${timeRun}`),
    fc.nat(52).map((weeks) => `P${weeks}W`),
  ),
);

/** Letters, with and without marks, NFC and PVALID in IDNA2008 (RFC 5892): U-label characters of one script. */
const unicodeLetters = [...'äöüéèàçñåøæßabcdefxyz'];
const unicodeLabel = lazy(() =>
  fc
    .array(fc.constantFrom(...unicodeLetters, ...'0123456789'), { minLength: 1, maxLength: 10 })
    .map((chars) => (/^[0-9]/.test(chars[0]!) ? ['a', ...chars] : chars).join('')),
);
const asciiTld = lazy(() => fc.stringMatching(/^[a-z]{2,6}$/));
/** RFC 5890 §2.3.2.1: a hostname of U-labels (or plain LDH labels) and an ASCII top-level label. */
const idnHostname = lazy(() =>
  fc
    .tuple(fc.array(unicodeLabel(), { minLength: 1, maxLength: 3 }), asciiTld())
    .map(([labels, tld]) => [...labels, tld].join('.')),
);
/** RFC 6531 §3.3: the local part may hold UTF-8 beyond ASCII, the domain U-labels. */
const idnEmail = lazy(() =>
  fc
    .tuple(fc.array(fc.constantFrom(...unicodeLetters, '.', '_', '+'), { minLength: 1, maxLength: 10 }), idnHostname())
    .map(([local, domain]) => `${local.join('').replace(/^\.|\.$|\.(?=\.)/g, '') || 'ü'}@${domain}`),
);

/** RFC 3986 unreserved, sub-delims, `:` and `@`: a pchar that needs no percent-encoding (some, pct-encoded, are). */
const pchar = /(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-F]{2})/.source;
/** WHATWG URL's special schemes read what follows `:` as an authority: kept for webUri's URLs with one. */
const specialSchemes = new Set(['http', 'https', 'ftp', 'file', 'ws', 'wss']);
const schemeUri = lazy(() =>
  fc
    .tuple(
      fc.stringMatching(/^[a-z][a-z0-9+.-]{0,6}$/),
      fc.stringMatching(new RegExp(`^${pchar}{1,8}(?:/${pchar}{0,8}){0,2}$`)),
    )
    .map(([scheme, path]) => `${specialSchemes.has(scheme) ? `x-${scheme}` : scheme}:${path}`),
);
/**
 * RFC 3986 §3 with an authority: `http(s)://host[:port]/path[?query][#fragment]`, path, query and fragment made of
 * pchar (§3.3) and `/` `?` (§3.4, §3.5). Not fc.webUrl: its percent-encoded characters come from fast-check's
 * all-of-Unicode string unit, whose reverse index (one Map entry per code point) held 82 MB for the rest of the run
 * and took seconds to build, as soon as one schema said `format: uri`.
 */
const webUri = lazy(() =>
  fc
    .tuple(
      fc.constantFrom('http', 'https'),
      fc.domain(),
      fc.option(fc.integer({ min: 1, max: 65_535 })),
      fc.stringMatching(new RegExp(`^(?:/${pchar}{0,8}){0,3}$`)),
      fc.option(fc.stringMatching(new RegExp(`^(?:${pchar}|[/?]){0,12}$`))),
      fc.option(fc.stringMatching(new RegExp(`^(?:${pchar}|[/?]){0,8}$`))),
    )
    .map(
      ([scheme, host, port, path, query, fragment]) =>
        `${scheme}://${host}${port === null ? '' : `:${port}`}${path || '/'}` +
        `${query === null ? '' : `?${query}`}${fragment === null ? '' : `#${fragment}`}`,
    ),
);
/** RFC 3986 §3: an absolute URI, `scheme ":" hier-part`, with or without an authority, query and fragment. */
const uri = lazy(() => fc.oneof(webUri(), schemeUri()));
/** RFC 3986 §4.2: relative references (a network-path, an absolute path, a path whose first segment has no `:`). */
const relativeRef = lazy(() =>
  fc.oneof(
    fc.stringMatching(/^(\/[a-z0-9._~-]{0,8}){1,3}(\?[a-z0-9=&]{0,8})?(#[a-z0-9]{0,6})?$/),
    fc.stringMatching(/^[a-z0-9_~-][a-z0-9._~-]{0,7}(\/[a-z0-9._~-]{0,8}){0,2}$/),
    fc.domain().map((host) => `//${host}/`),
  ),
);
/** RFC 3987 §2.2: an IRI, its path and query holding ucschar (characters beyond ASCII) as they are. */
const iriSegment = lazy(() =>
  fc
    .array(fc.constantFrom(...unicodeLetters, '日', '本', '語', 'δ', '-', '_', '~'), { minLength: 1, maxLength: 8 })
    .map((chars) => chars.join('')),
);
const iri = lazy(() =>
  fc
    .tuple(
      fc.constantFrom('http', 'https'),
      fc.domain(),
      fc.array(iriSegment(), { maxLength: 3 }),
      fc.option(iriSegment()),
    )
    .map(([scheme, host, path, query]) => `${scheme}://${host}/${path.join('/')}${query ? `?q=${query}` : ''}`),
);

/** RFC 6570 §2: literals and expressions (level 1 to 4 operators; `=,!@|` are reserved for future use). */
const templateLiteral = lazy(() => fc.stringMatching(/^[A-Za-z0-9\-._~:/?@!$&()*+,;=]{1,8}$/));
const varspec = lazy(() =>
  fc
    .tuple(
      fc.stringMatching(/^[A-Za-z0-9_]{1,6}$/),
      fc.oneof(
        fc.constant(''),
        fc.constant('*'),
        fc.integer({ min: 1, max: 9999 }).map((n) => `:${n}`),
      ),
    )
    .map(([name, modifier]) => `${name}${modifier}`),
);
const expression = lazy(() =>
  fc
    .tuple(fc.constantFrom('', '+', '#', '.', '/', ';', '?', '&'), fc.array(varspec(), { minLength: 1, maxLength: 3 }))
    .map(([operator, specs]) => `{${operator}${specs.join(',')}}`),
);
const uriTemplate = lazy(() =>
  fc.array(fc.oneof(templateLiteral(), expression()), { minLength: 1, maxLength: 4 }).map((parts) => parts.join('')),
);

/** RFC 6901 §3: reference tokens with `~` and `/` escaped as `~0` and `~1`. */
const pointerOf = (ascii: boolean) =>
  fc
    .array(
      ascii
        ? fc.string({
            unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)),
            maxLength: 6,
          })
        : fc.string({ unit: 'grapheme', maxLength: 6 }),
      { maxLength: 4 },
    )
    .map((tokens) => tokens.map((token) => `/${token.replace(/~/g, '~0').replace(/\//g, '~1')}`).join(''));

/** ECMA-262 §22.2.1 patterns that parse with and without the `u` flag: atoms, classes, groups, quantifiers, anchors. */
const regexAtom = lazy(() =>
  fc.oneof(
    fc.constantFrom('a', 'b', 'z', '0', '9', '\\d', '\\w', '\\s', '.', '\\.', '[a-z]', '[0-9A-F]', '[^/]'),
    fc.constantFrom('(?:ab|c)', '(x)', '(?:[a-f]{2})'),
  ),
);
const regexPattern = lazy(() =>
  fc
    .tuple(
      fc.boolean(),
      fc.array(fc.tuple(regexAtom(), fc.constantFrom('', '', '*', '+', '?', '{2}', '{1,3}')), {
        minLength: 1,
        maxLength: 4,
      }),
      fc.boolean(),
    )
    .map(
      ([start, atoms, end]) =>
        `${start ? '^' : ''}${atoms.map(([atom, quantifier]) => atom + quantifier).join('')}${end ? '$' : ''}`,
    ),
);

/** RFC 4648 §4: base64 with padding, pad bits zero (§3.5), as an encoder writes it. */
const base64 = lazy(() => fc.uint8Array({ maxLength: 24 }).map((bytes) => Buffer.from(bytes).toString('base64')));

const formats = new Map<string, StringFormat>([
  [
    'date',
    {
      valid: () => date(),
      samples: ['2024-01-01', '2024-02-29', '2000-02-29', '1999-12-31'],
      invalid: [
        { note: 'February 30th', value: '2023-02-30' },
        { note: 'February 29th of a common year', value: '2023-02-29' },
        { note: 'month 13', value: '2023-13-01' },
        { note: 'not a date', value: 'a' },
      ],
    },
  ],
  [
    'date-time',
    {
      valid: () => fc.tuple(date(), fullTime()).map(([day, time]) => `${day}T${time}`),
      samples: ['2024-01-01T00:00:00Z', '2024-02-29T23:59:59.999+14:00', '1999-12-31T23:59:59-12:00'],
      invalid: [
        { note: 'February 30th', value: '2023-02-30T10:00:00Z' },
        { note: 'hour 24', value: '2023-01-01T24:00:00Z' },
        { note: 'no time zone', value: '2023-01-01T10:00:00' },
        { note: 'a date alone', value: '2023-01-01' },
      ],
    },
  ],
  [
    'time',
    {
      valid: () => fullTime(),
      samples: ['00:00:00Z', '23:59:59.5+05:30'],
      invalid: [
        { note: 'hour 24', value: '24:00:00Z' },
        { note: 'minute 60', value: '10:60:00Z' },
        { note: 'no time zone', value: '10:00:00' },
      ],
    },
  ],
  [
    'duration',
    {
      valid: () => duration(),
      samples: ['P1D', 'PT1S', 'P1Y2M3DT4H5M6S', 'P1W'],
      invalid: [
        { note: 'no unit', value: 'P' },
        { note: 'an empty time part', value: 'PT' },
        { note: 'hours outside the time part', value: 'P1H' },
        { note: 'a month skipped', value: 'P1Y1D' },
        { note: 'no leading P', value: '1D' },
      ],
    },
  ],
  [
    'email',
    {
      valid: () => fc.emailAddress(),
      samples: ['a@example.com', 'first.last+tag@sub.example.org'],
      invalid: [
        { note: 'no @', value: 'a' },
        { note: 'no domain', value: 'a@' },
        { note: 'no local part', value: '@example.com' },
        { note: 'a space in the local part', value: 'a b@example.com' },
      ],
    },
  ],
  [
    'idn-email',
    {
      valid: (ascii) => (ascii ? fc.emailAddress() : fc.oneof(fc.emailAddress(), idnEmail())),
      samples: ['a@example.com', 'jürgen@bücher.de'],
      invalid: [],
    },
  ],
  [
    'hostname',
    {
      valid: () => fc.domain(),
      samples: ['example.com', 'a.b-c.example.org'],
      invalid: [
        { note: 'a label starting with a hyphen', value: '-a.example' },
        { note: 'an empty label', value: 'a..example' },
        { note: 'an underscore', value: 'a_b.example' },
        { note: 'a label of 64 characters', value: `${'a'.repeat(64)}.example` },
      ],
    },
  ],
  [
    'idn-hostname',
    {
      valid: (ascii) => (ascii ? fc.domain() : fc.oneof(fc.domain(), idnHostname())),
      samples: ['example.com', 'bücher.de'],
      invalid: [],
    },
  ],
  [
    'ipv4',
    {
      valid: () => fc.ipV4(),
      samples: ['192.0.2.1', '0.0.0.0', '255.255.255.255'],
      // Not `01.2.3.4`: ajv refuses it, but RFC 2673 §3.2's decbyte is 1*3DIGIT, so the RFC may allow it; a
      // negative case must break the RFC too, or a server keeping it would be reported wrongly.
      invalid: [
        { note: 'an octet over 255', value: '256.1.1.1' },
        { note: 'three octets', value: '1.2.3' },
      ],
    },
  ],
  [
    'ipv6',
    {
      valid: () => fc.ipV6(),
      samples: ['2001:db8::1', '::', '::ffff:192.0.2.1', '2001:0db8:0000:0000:0000:ff00:0042:8329'],
      invalid: [
        { note: 'nine groups', value: '1:2:3:4:5:6:7:8:9' },
        { note: 'a group of five digits', value: '12345::' },
        { note: 'two ::', value: '1::2::3' },
      ],
    },
  ],
  [
    'uri',
    {
      valid: () => uri(),
      samples: ['https://example.com/', 'urn:example:a', 'https://example.com/a/b?c=d#e'],
      invalid: [
        { note: 'no scheme', value: 'a' },
        { note: 'a relative reference', value: '/relative/path' },
        { note: 'a scheme starting with a digit', value: '1a:b' },
        { note: 'a space', value: 'https://example.com/a b' },
      ],
    },
  ],
  [
    'uri-reference',
    {
      valid: () => fc.oneof(uri(), relativeRef()),
      samples: ['/a', 'https://example.com/', 'a/b?c#d'],
      invalid: [
        { note: 'a space', value: 'a b' },
        { note: 'a bad percent-encoding', value: 'https://example.com/%zz' },
        { note: 'a backslash', value: '\\' },
      ],
    },
  ],
  [
    'iri',
    {
      valid: (ascii) => (ascii ? uri() : fc.oneof(uri(), iri())),
      samples: ['https://example.com/', 'https://example.com/bücher'],
      invalid: [],
    },
  ],
  [
    'iri-reference',
    {
      valid: (ascii) =>
        ascii
          ? fc.oneof(uri(), relativeRef())
          : fc.oneof(
              uri(),
              iri(),
              relativeRef(),
              iriSegment().map((segment) => `/${segment}`),
            ),
      samples: ['/a', 'https://example.com/bücher'],
      invalid: [],
    },
  ],
  [
    'uri-template',
    {
      valid: () => uriTemplate(),
      samples: ['/a/{b}', 'https://example.com/{+path}{?q,r*}'],
      invalid: [
        { note: 'an unclosed expression', value: '{a' },
        { note: 'a lone }', value: 'a}' },
        { note: 'a space in a variable name', value: '{a b}' },
      ],
    },
  ],
  [
    'uuid',
    {
      valid: () => fc.uuid({ version: [1, 2, 3, 4, 5] }),
      samples: ['123e4567-e89b-42d3-a456-426614174000'],
      invalid: [
        { note: 'one digit short', value: '123e4567-e89b-42d3-a456-42661417400' },
        { note: 'a letter past f', value: 'g23e4567-e89b-42d3-a456-426614174000' },
        { note: 'no hyphens', value: '123e4567e89b42d3a456426614174000' },
      ],
    },
  ],
  [
    'json-pointer',
    {
      valid: pointerOf,
      samples: ['', '/a', '/a~1b/0/~0'],
      invalid: [
        { note: 'no leading /', value: 'a' },
        { note: 'a ~ not followed by 0 or 1', value: '/~2' },
      ],
    },
  ],
  [
    'relative-json-pointer',
    {
      valid: (ascii) =>
        fc.tuple(fc.nat(20), fc.oneof(fc.constant('#'), pointerOf(ascii))).map(([up, rest]) => `${up}${rest}`),
      samples: ['0', '1/a', '0#'],
      invalid: [
        { note: 'a negative number', value: '-1' },
        { note: 'a leading zero', value: '01/a' },
        { note: 'no number', value: '/a' },
      ],
    },
  ],
  [
    'regex',
    {
      valid: () => regexPattern(),
      samples: ['^[a-z]+$', 'a'],
      invalid: [
        { note: 'an unclosed group', value: '(' },
        { note: 'an unclosed class', value: '[' },
        { note: 'a quantifier with nothing to repeat', value: '*' },
      ],
    },
  ],
  [
    'byte',
    {
      valid: () => base64(),
      samples: ['', 'YQ==', 'YWJj'],
      invalid: [
        { note: 'one character', value: 'a' },
        { note: 'no padding', value: 'YQ' },
        { note: 'a character outside base64', value: 'ab?d' },
      ],
    },
  ],
]);

/** Valid values of a string format, or undefined for one with no generator (unknown, `password`, `binary`: any string). */
export function formatArbitrary(format: unknown, ascii = false): fc.Arbitrary<string> | undefined {
  return typeof format === 'string' ? formats.get(format)?.valid(ascii) : undefined;
}

/** Fixed valid values of a string format, plainest first; none for an unknown format. */
export function formatSamples(format: unknown): readonly string[] {
  return (typeof format === 'string' && formats.get(format)?.samples) || [];
}

/** The string formats with a generator of their own: every one this table knows. */
export const generatedFormats: readonly string[] = [...formats.keys()];

/** OpenAPI 3.1 §4.8.5.1's number formats: the range a value must lie in, and whether it must be an integer. */
const numberFormats = new Map<string, { min: number; max: number; integer: boolean }>([
  ['int32', { min: -(2 ** 31), max: 2 ** 31 - 1, integer: true }],
  // JSON numbers past 2^53 lose digits in every JavaScript parser: valid int64 values are drawn within safe integers.
  ['int64', { min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, integer: true }],
  ['float', { min: -3.4028234663852886e38, max: 3.4028234663852886e38, integer: false }],
  ['double', { min: -Number.MAX_VALUE, max: Number.MAX_VALUE, integer: false }],
]);

/** The range of a number format, or undefined for a format that is none. */
export function numberFormat(format: unknown): { min: number; max: number; integer: boolean } | undefined {
  return typeof format === 'string' ? numberFormats.get(format) : undefined;
}

/**
 * Values breaking the format of a schema of these types, and nothing else of it: a string format's invalid strings
 * (where `string` is a type); int32's integers just outside 32 bits; int64's 1.5 (where `number` is: an integer type
 * already has its "not an integer" break). None for the formats ajv does not check (uncheckedFormats).
 */
export function formatBreaks(format: unknown, types: readonly string[]): { note: string; value: unknown }[] {
  if (typeof format !== 'string' || uncheckedFormats.has(format)) return [];
  const named = (value: FormatBreak) => ({ note: `format ${format}: ${value.note}`, value: value.value });
  if (types.includes('string')) return (formats.get(format)?.invalid ?? []).map(named);
  if (!types.includes('integer') && !types.includes('number')) return [];
  if (format === 'int32')
    return [
      { note: 'format int32: 2^31, past the largest', value: 2 ** 31 },
      { note: 'format int32: -2^31-1, past the smallest', value: -(2 ** 31) - 1 },
    ];
  if (format === 'int64' && types.includes('number')) return [{ note: 'format int64: not an integer', value: 1.5 }];
  return [];
}
