// Which API deliveries belong to when no --api names one: chosen from the config alone (its `webhooks:` blocks).
import { describe, expect, it } from 'vitest';
import type { ApiEntry } from '../../src/config/project.js';
import { makeProject } from '../../src/config/project.js';
import { webhooksApi } from '../../src/config/webhooks-api.js';
import { ContractsError } from '../../src/core/errors.js';

const convention = { eventHeader: 'X-Event', signatures: [] };
const api = (name: string, webhooks = false): ApiEntry => ({
  name,
  spec: `${name}.yaml`,
  generated: `generated/${name}.ts`,
  mockPort: 4010,
  credentials: [],
  ...(webhooks ? { webhooks: convention } : {}),
  baseDir: '/project',
});

describe('the API deliveries belong to without --api', () => {
  it.each([
    {
      case: 'the one API with a webhooks: block among several',
      apis: [api('a'), api('b', true), api('c')],
      chosen: 'b',
    },
    { case: 'the only API, with a block', apis: [api('a', true)], chosen: 'a' },
    { case: 'the only API, without a block (its spec says whether it has webhooks)', apis: [api('a')], chosen: 'a' },
  ])('is $case', ({ apis, chosen }) => {
    expect(webhooksApi(makeProject({ root: '/project', apis })).name).toBe(chosen);
  });

  it.each([
    {
      case: 'several APIs have a block',
      apis: [api('a', true), api('b'), api('c', true)],
      message: 'give --api NAME: several APIs of the config have a webhooks: block (a, c)',
    },
    {
      case: 'several APIs and none has a block',
      apis: [api('a'), api('b')],
      message:
        'give --api NAME: no API of the config has a webhooks: block to say which one sends these deliveries (a, b)',
    },
    {
      case: 'there is no API at all',
      apis: [],
      message:
        'no contracts.config.yaml in /project or any folder above it: run `contracts init SPEC` to write one for your spec, or give --config FILE',
    },
  ])('is asked for, as a usage error, when $case', ({ apis, message }) => {
    const project = makeProject({ root: '/project', apis, searchedFrom: '/project' });
    let thrown: unknown;
    try {
      webhooksApi(project);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ContractsError);
    expect({ code: (thrown as ContractsError).code, message: (thrown as ContractsError).message }).toEqual({
      code: apis.length === 0 ? 'UNKNOWN_API' : 'USAGE',
      message,
    });
  });
});
