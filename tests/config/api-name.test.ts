// The name `contracts init` gives an API from its spec's title: short and meaningful (the credential variables
// CONTRACTS_<NAME>_… are made from it), from the titles of public specs as they are written.
import { describe, expect, it } from 'vitest';
import { shortApiName } from '../../src/config/api-name.js';
import { credentialVariable } from '../../src/config/credential-variables.js';

describe('shortApiName', () => {
  it.each([
    ["GitHub's official OpenAPI spec + Octokit extension", 'github'],
    ['GitHub v3 REST API', 'github'],
    ['Spotify Web API with fixes and improvements from sonallux', 'spotify-web'],
    ['Stripe API', 'stripe'],
    ['Twilio - Api', 'twilio'],
    ['Twilio - Accounts', 'twilio-accounts'],
    ['Kubernetes', 'kubernetes'],
    ['DigitalOcean API', 'digitalocean'],
    ['Box Platform API', 'box-platform'],
    ['The Plaid API', 'plaid'],
    ['Swagger Petstore', 'petstore'],
    ['Swagger Petstore - OpenAPI 3.0', 'petstore'],
    ['Pets (OpenAPI 3.0 fixture)', 'pets'],
    ['Microsoft Graph v1.0', 'microsoft-graph'],
    ['Amazon Elastic Compute Cloud', 'amazon-elastic-compute'],
    ['Google Cloud Storage JSON API', 'google-cloud-storage'],
    ['api.github.com', 'github-com'],
    ['API', 'api'],
    ['3scale API', 'api-3scale'],
    ['Averyveryveryveryveryveryverylongtitlewithnospaces', 'averyveryveryveryveryver'],
    ['OpenAPI spec', undefined],
  ])('names %j %j', (title, name) => {
    expect(shortApiName(title)).toBe(name);
  });

  it('gives the credential variables short names too', () => {
    const name = shortApiName('Spotify Web API with fixes and improvements from sonallux')!;
    expect(credentialVariable(name, 'oauth_2_0')).toBe('CONTRACTS_SPOTIFY_WEB_OAUTH_2_0');
  });

  it('keeps accented letters, without their accents', () => {
    expect(shortApiName('Ünïcödé API')).toBe('unicode');
  });

  it('always gives a name the config accepts', () => {
    for (const title of ['9', 'Ünïcödé API', 'a'.repeat(200), '-- x --', 'v2 things'])
      expect(shortApiName(title) ?? 'api').toMatch(/^[a-z][a-z0-9-]{0,39}$/);
  });
});
