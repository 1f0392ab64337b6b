// Type-level tests of the generated delivery payload types (the spec's top-level webhooks).
import { describe, expectTypeOf, it } from 'vitest';
import type { webhooks } from '../../../generated/repository-webhooks.js';

type JsonBody<Event extends keyof webhooks> = NonNullable<
  webhooks[Event]['post']['requestBody']
>['content']['application/json'];
type FormBody<Event extends keyof webhooks> = NonNullable<
  webhooks[Event]['post']['requestBody']
>['content']['application/x-www-form-urlencoded'];
type IssuesPayload = JsonBody<'issues'>;
type PushPayload = JsonBody<'push'>;

describe('generated webhook payload types', () => {
  it('types the issues payload of the seed: action, issue.body, repository.id', () => {
    const opened: IssuesPayload = { action: 'opened', issue: { body: 'a problem' }, repository: { id: 456 } };
    expectTypeOf(opened.repository.id).toEqualTypeOf<number>();
    // @ts-expect-error repository.id is an integer
    const wrongId: IssuesPayload = { action: 'opened', issue: { body: 'a problem' }, repository: { id: '456' } };
    void wrongId;
  });

  it('rejects a push payload where an issues payload is expected', () => {
    const push: PushPayload = { ref: 'refs/heads/main', commits: [] };
    // @ts-expect-error a push payload has none of action, issue and repository as the issues payload needs them
    const issues: IssuesPayload = push;
    void issues;
  });

  it('types the form body as the JSON payload in a payload field', () => {
    const form: FormBody<'issues'> = { payload: { action: 'opened', issue: { body: 'b' }, repository: { id: 1 } } };
    expectTypeOf(form.payload).toEqualTypeOf<IssuesPayload>();
    // @ts-expect-error the form carries the payload in its payload field, not at the top level
    const flat: FormBody<'issues'> = { action: 'opened', issue: { body: 'b' }, repository: { id: 1 } };
    void flat;
  });

  it('names only the events the seed shows', () => {
    expectTypeOf<keyof webhooks>().toEqualTypeOf<'ping' | 'push' | 'issues'>();
  });
});
