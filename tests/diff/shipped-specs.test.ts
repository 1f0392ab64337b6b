import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { diffSpecs } from '../../src/core/diff/diff-specs.js';
import type { DiffLevel, DiffRuleId } from '../../src/core/diff/diff-rules.js';
import { parseSpec } from '../../src/core/load-spec.js';
import { specFile } from '../helpers/paths.js';

const source = (name: string) => readFileSync(specFile(name), 'utf8');

/** Replaces exactly one occurrence, so an edit that no longer applies fails loudly instead of testing nothing. */
function edit(text: string, from: string, to: string): string {
  expect(text.split(from).length - 1, `"${from.slice(0, 60)}" occurs once`).toBe(1);
  return text.replace(from, to);
}

const placementUnderOrder = `            - title: paymentMethod under order
              type: object
              required: [order]
              properties:
                order:
                  type: object
                  required: [paymentMethod]
                  properties:
                    paymentMethod:
                      $ref: "#/components/schemas/PaymentMethodOptions"
`;

type Case = [
  string,
  { spec: 'client-session' | 'repository-webhooks'; change: (text: string) => string; want: [DiffRuleId, DiffLevel][] },
];

const cases: Case[] = [
  [
    'a currency code added to the response enum',
    {
      spec: 'client-session',
      change: (t) => edit(t, 'YER, ZAR, ZMW, ZWL', 'YER, ZAR, ZMW, ZWL, ZWG'),
      want: [['response-enum-value-added', 'warning']],
    },
  ],
  [
    'a required request header added',
    {
      spec: 'client-session',
      change: (t) =>
        edit(
          t,
          '        - $ref: "#/components/parameters/ClientToken"\n',
          '        - $ref: "#/components/parameters/ClientToken"\n        - { name: X-Request-Id, in: header, required: true, schema: { type: string } }\n',
        ),
      want: [['request-required-parameter-added', 'error']],
    },
  ],
  [
    "per_page's maximum made 50",
    {
      spec: 'repository-webhooks',
      change: (t) => edit(t, '        maximum: 100', '        maximum: 50'),
      want: [['request-max-lowered', 'error']],
    },
  ],
  [
    'a third accepted place added to the placement rule',
    {
      spec: 'client-session',
      change: (t) =>
        edit(
          t,
          placementUnderOrder,
          placementUnderOrder +
            placementUnderOrder.replace('under order', 'under customer').replace(/order/g, 'customer'),
        ),
      want: [['response-composition-widened', 'warning']],
    },
  ],
  [
    'one of the two branches of the placement rule removed',
    {
      spec: 'client-session',
      change: (t) => edit(t, placementUnderOrder, ''),
      want: [['response-composition-narrowed', 'info']],
    },
  ],
  [
    'the placement rule rewritten as an anyOf of two allOfs',
    {
      spec: 'client-session',
      change: (t) =>
        edit(
          t,
          '      allOf:\n        - $ref: "#/components/schemas/ClientSessionFields"\n        - anyOf:\n',
          [
            '      anyOf:',
            '        - allOf: [{ $ref: "#/components/schemas/ClientSessionFields" }, { required: [paymentMethod] }]',
            '        - allOf: [{ $ref: "#/components/schemas/ClientSessionFields" }, { required: [order], properties: { order: { required: [paymentMethod] } } }]',
            '      x-former-placement:',
            '        - anyOf:',
            '',
          ].join('\n'),
        ),
      want: [],
    },
  ],
  [
    'an optional request body field added',
    {
      spec: 'repository-webhooks',
      change: (t) =>
        edit(
          t,
          '        active:\n          type: boolean\n          description: The default is not shown.\n',
          '        active:\n          type: boolean\n          description: The default is not shown.\n        description:\n          type: string\n',
        ),
      want: [['request-property-added', 'info']],
    },
  ],
  [
    'a webhook id made nullable in responses',
    {
      spec: 'repository-webhooks',
      change: (t) =>
        edit(
          t,
          '        id:\n          type: integer\n          description: Hook identifier.',
          '        id:\n          type: [integer, "null"]\n          description: Hook identifier.',
        ),
      want: [['response-property-became-nullable', 'error']],
    },
  ],
  [
    'an operation removed',
    {
      spec: 'repository-webhooks',
      change: (t) =>
        t.replace(
          / {2}\/repos\/\{owner\}\/\{repo\}\/hooks\/\{hook_id\}\/pings:[\s\S]*?(?= {2}\/repos\/\{owner\}\/\{repo\}\/hooks\/\{hook_id\}\/tests:)/,
          '',
        ),
      want: [['path-removed', 'error']],
    },
  ],
];

describe('contracts diff on the shipped specs', () => {
  it.each(['client-session', 'repository-webhooks'])('finds no change between %s and itself', (name) => {
    const spec = parseSpec(`specs/${name}.yaml`, source(name));
    expect(diffSpecs(spec, parseSpec(`specs/${name}.yaml`, source(name)))).toEqual([]);
  });

  it.each(cases)('classifies %s', (_name, { spec, change, want }) => {
    const base = parseSpec(`specs/${spec}.yaml`, source(spec));
    const head = parseSpec(`head/${spec}.yaml`, change(source(spec)));
    const got = [...new Set(diffSpecs(base, head).map((c) => `${c.rule}:${c.level}`))].sort();
    expect(got).toEqual(want.map(([rule, level]) => `${rule}:${level}`).sort());
  });
});
