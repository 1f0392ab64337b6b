// A Swagger 2.0 description is honoured on the wire as its 3.0 conversion says (OpenAPI 3.0.3 §4.7.12.4, style
// values): collectionFormat csv is a form list (`?tags=a,b`), multi a repeated parameter (`?colors=a&colors=b`);
// `x-nullable` allows null; `consumes`/`produces` are the documented media types; `basePath` the server's path;
// `securityDefinitions` the credentials a request must carry. Each row is a request or response and its findings, whole.
import { describe, expect, it } from 'vitest';
import { checkExchange } from '../../../src/core/check-exchange.js';
import { checkRequest, splitTarget, type RequestRecord } from '../../../src/core/check-request.js';
import { compileContract } from '../../../src/core/compile-contract.js';
import type { Finding } from '../../../src/core/finding.js';
import { loadSpec } from '../../../src/core/load-spec.js';
import { fixture } from '../../helpers/paths.js';

const spec = await loadSpec(fixture('swagger2/pets-2.0.yaml'));
const contract = compileContract(spec);
const key = { 'x-api-key': 'k' };
const json = { ...key, 'content-type': 'application/json' };
const request = (method: string, target: string, headers: Record<string, string> = key, body = ''): RequestRecord => ({
  method,
  ...splitTarget(target),
  headers,
  body,
});
const finding = (
  operation: string,
  check: Finding['check'],
  fields: Partial<Finding> & { message: string },
): Finding => ({
  check,
  severity: 'error',
  operation,
  instancePath: '',
  ...fields,
});
const parameters: Finding['check'] = 'request_parameters_conformance';

const requests: [string, RequestRecord, Finding[]][] = [
  ['collectionFormat csv: a comma-separated list (`?tags=cat,dog`)', request('GET', '/pets?tags=cat,dog'), []],
  [
    'collectionFormat csv: the same list repeated (`?tags=cat&tags=dog`)',
    request('GET', '/pets?tags=cat&tags=dog'),
    [],
  ],
  [
    'collectionFormat csv: an item outside the enum',
    request('GET', '/pets?tags=cat,fish'),
    [
      finding('listPets', parameters, {
        message: 'query parameter tags/1 must be one of the allowed values ("cat", "dog", "bird"): got "cat,fish"',
        schemaPath: '/items/enum',
        actual: 'cat,fish',
      }),
    ],
  ],
  [
    'collectionFormat multi: a repeated parameter (`?colors=red&colors=green`)',
    request('GET', '/pets?colors=red&colors=green'),
    [],
  ],
  [
    'collectionFormat multi: a comma-separated value is one item',
    request('GET', '/pets?colors=red,green'),
    [
      finding('listPets', parameters, {
        message: 'query parameter colors/0 must be one of the allowed values ("red", "green"): got "red,green"',
        schemaPath: '/items/enum',
        actual: 'red,green',
      }),
      {
        check: parameters,
        severity: 'warning',
        operation: 'listPets',
        instancePath: '',
        message: 'query parameter colors carries "," not percent-encoded, and its allowReserved is false',
      },
    ],
  ],
  [
    'securityDefinitions: a request without the API key header',
    request('GET', '/pets', {}),
    [
      finding('listPets', 'request_security_conformance', {
        message: 'the request lacks the credential its security requires: header X-Api-Key (scheme apiKey)',
      }),
    ],
  ],
  [
    'consumes: a body of a media type the operation does not consume',
    request('POST', '/pets', { ...key, 'content-type': 'text/plain' }, 'hi'),
    [
      finding('createPet', 'request_body_conformance', {
        message: "the request body's media type text/plain is not documented (documented: application/json)",
        expected: ['application/json'],
        actual: 'text/plain',
      }),
    ],
  ],
  ['x-nullable: a body parameter property sent as null', request('POST', '/pets', json, '{"name":"a","tag":null}'), []],
  [
    'x-nullable: the property is still typed',
    request('POST', '/pets', json, '{"name":"a","tag":5}'),
    [
      finding('createPet', 'request_body_conformance', {
        instancePath: '/tag',
        schemaPath: '/properties/tag/type',
        message: 'request /tag must be string,null',
      }),
    ],
  ],
];

const answer = (contentType: string, body: string) => ({
  method: 'GET',
  path: '/pets/1',
  status: 200,
  headers: { 'content-type': contentType },
  body,
});

const responses: [string, ReturnType<typeof answer>, Finding[]][] = [
  ['x-nullable: a response property that is null', answer('application/json', '{"id":1,"name":"a","tag":null}'), []],
  [
    'x-nullable: a response property of another type',
    answer('application/json', '{"id":1,"name":"a","tag":5}'),
    [
      finding('getPet', 'response_schema_conformance', {
        instancePath: '/tag',
        schemaPath: '/properties/tag/type',
        message: '/tag must be string,null, not 5',
        actual: 5,
      }),
    ],
  ],
  [
    'produces: an answer of a media type the API does not produce',
    answer('text/html', '<p>'),
    [
      finding('getPet', 'content_type_conformance', {
        message: 'content type text/html is not documented for status 200 (documented: application/json)',
        expected: ['application/json'],
        actual: 'text/html',
      }),
    ],
  ],
];

describe('a Swagger 2.0 description on the wire', () => {
  it.each(requests)('checks a request: %s', (_name, given, want) => {
    expect(checkRequest(contract, given).findings).toEqual(want);
  });

  it.each(responses)('checks a response: %s', (_name, given, want) => {
    expect(checkExchange(contract, given).findings).toEqual(want);
  });

  it('serves its basePath as the server URL path, on its host and scheme', () => {
    expect(spec.document.servers).toEqual([{ url: 'http://localhost:8080/v1' }]);
  });
});
