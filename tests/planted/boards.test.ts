// Planted-bug service B (boards: users and their posts, integer ids, page numbers): its twin conforms to its spec,
// and each planted bug is real: a short request sequence shows it with the bug on and not in the twin.
import { expect } from 'vitest';
import { plantedCall } from '../helpers/planted.js';
import { type BugSequence, describePlanted } from '../helpers/planted-suite.js';

/** A new user and a post of theirs: the post's path. */
async function userAndPost(base: string, title = 'Hello') {
  const user = await plantedCall(base, 'POST', '/users', { json: { name: 'Ada' } });
  const post = await plantedCall(base, 'POST', `/users/${user.body.id}/posts`, { json: { title } });
  expect([user.status, post.status]).toEqual([201, 201]);
  return { user: user.body.id as number, path: `/users/${user.body.id}/posts/${post.body.id}`, id: post.body.id };
}

/** Every post id of the user, page by page (per_page 1), until an empty page. */
async function listedIds(base: string, user: number) {
  const ids: number[] = [];
  for (let page = 1; page <= 20; page++) {
    const answer = await plantedCall(base, 'GET', `/users/${user}/posts?page=${page}&per_page=1`);
    if (answer.body.items.length === 0) break;
    ids.push(...answer.body.items.map((post: { id: number }) => post.id));
  }
  return ids;
}

const sequences: [string, BugSequence][] = [
  [
    'ensure_resource_availability',
    {
      run: async (base) => {
        const { path } = await userAndPost(base);
        const read = await plantedCall(base, 'GET', path);
        await plantedCall(base, 'PUT', path, { json: { title: 'Again' } });
        return [read.status, (await plantedCall(base, 'GET', path)).status];
      },
      twin: [200, 200],
      planted: [404, 200],
    },
  ],
  [
    'listed_after_create',
    {
      run: async (base) => {
        const { user, id } = await userAndPost(base);
        const second = await plantedCall(base, 'POST', `/users/${user}/posts`, { json: { title: 'Second' } });
        return (await listedIds(base, user)).map((listed) => [id, second.body.id].indexOf(listed));
      },
      twin: [0, 1],
      planted: [0],
    },
  ],
  [
    'use_after_free',
    {
      run: async (base) => {
        const { user, path } = await userAndPost(base);
        const deleted = await plantedCall(base, 'DELETE', path);
        const read = await plantedCall(base, 'GET', path);
        return [deleted.status, read.status, await listedIds(base, user)];
      },
      twin: [204, 404, []],
      planted: [204, 200, []],
    },
  ],
  [
    'undocumented_status',
    {
      run: async (base) => (await plantedCall(base, 'DELETE', (await userAndPost(base)).path)).status,
      twin: 204,
      planted: 200,
    },
  ],
  [
    'server_error',
    {
      run: async (base) => {
        const { user, path } = await userAndPost(base);
        const long = { title: 'x'.repeat(256) };
        const created = await plantedCall(base, 'POST', `/users/${user}/posts`, { json: long });
        return [created.status, (await plantedCall(base, 'PUT', path, { json: long })).status];
      },
      twin: [201, 200],
      planted: [500, 500],
    },
  ],
];

describePlanted('boards', sequences);
