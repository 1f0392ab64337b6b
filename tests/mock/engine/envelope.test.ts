// A resource its answers wrap in one property (`{ "article": … }`, as Rails and the RealWorld API do): the sandbox
// stores what the property holds, finds its id (the slug) inside it, and wraps every answer again; a list counts its
// items in a field named for them (`articlesCount`). The spec's wrapped example is a seed.
import { afterAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/index.js';
import { root } from '../../helpers/paths.js';

const spec = `${root}/tests/fixtures/enveloped/openapi.yaml`;
let sandbox: Sandbox | undefined;
afterAll(async () => {
  await sandbox?.stop();
});

async function send(path: string, init: RequestInit = {}) {
  const answer = await fetch(`${sandbox!.url}${path}`, init);
  const text = await answer.text();
  return { status: answer.status, body: text === '' ? undefined : (JSON.parse(text) as Record<string, any>) };
}

describe('a resource wrapped in one property', () => {
  it('is stored unwrapped, read by the id inside it, listed and counted, and wrapped in every answer', async () => {
    sandbox = await startSandbox({ spec, port: 0 });
    const seed = await send('/articles/how-to-train-your-dragon');
    expect(seed).toEqual({
      status: 200,
      body: {
        article: {
          slug: 'how-to-train-your-dragon',
          title: 'How to train your dragon',
          body: 'Believe',
          createdAt: '2026-01-01T00:00:00Z',
        },
      },
    });
    const created = await send('/articles', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ article: { title: 'Envelopes', body: 'Wrapped' } }),
    });
    expect(created.status).toBe(201);
    const article = created.body!.article as { slug: string; title: string };
    expect(Object.keys(created.body!)).toEqual(['article']);
    expect(article.title).toBe('Envelopes');
    expect(await send(`/articles/${encodeURIComponent(article.slug)}`)).toEqual({ status: 200, body: { article } });
    const listed = await send('/articles');
    expect(listed.body!.articles.map((item: { title: string }) => item.title)).toEqual([
      'How to train your dragon',
      'Envelopes',
    ]);
    expect(listed.body!.articlesCount).toBe(2);
    expect((await send(`/articles/${encodeURIComponent(article.slug)}`, { method: 'DELETE' })).status).toBe(204);
    expect((await send(`/articles/${encodeURIComponent(article.slug)}`)).status).toBe(404);
  });
});
