// The list rules of the webhooks sequences (per_page_capped, per_page_respected, page_parameter, deliveries_cursor),
// shared by the full and the read-only sequence, and judgeOn: a rule judged only on an answer that succeeded.
import {
  deliveriesCursor,
  idsOf,
  isSuccess,
  nextCursor,
  pageParameter,
  perPageCapped,
  perPageRespected,
} from '../behaviour/index.js';
import { headerValue } from '../../../core/exchange.js';
import type { CheckName, Finding } from '../../../core/finding.js';
import { judge, unexercised, type Observed, type SequenceContext } from '../../../runner/sequence-context.js';
import type { WebhooksCalls } from './webhooks-calls.js';

export type ListCall = (
  query: { per_page: number; page?: number; cursor?: string },
  options?: { probe?: boolean },
) => Promise<Observed>;

/** per_page=1 as the control, then per_page=101 as the probe; returns the control. */
export async function perPageProbe(context: SequenceContext, operationId: string, list: ListCall): Promise<Observed> {
  const control = await list({ per_page: 1 });
  const tooMany = await list({ per_page: 101 }, { probe: true });
  judge(
    context,
    operationId,
    'per_page_capped',
    perPageCapped(operationId, control.status, tooMany.status, tooMany.json),
  );
  return control;
}

/** Judges `check` on a response that had to succeed for it to mean anything; otherwise it could not be exercised. */
export function judgeOn(
  context: SequenceContext,
  observed: Observed,
  operationId: string,
  check: CheckName,
  findings: () => Finding[],
): void {
  if (isSuccess(observed.status)) judge(context, operationId, check, findings());
  else
    unexercised(
      context,
      operationId,
      [check],
      `${observed.exchange.method} ${observed.exchange.path} answered ${observed.status}`,
    );
}

/** The hook list's paging: `all` read with per_page=100, then the per_page probe, then page 2 of one per page. */
export async function hookListPaging(context: SequenceContext, calls: WebhooksCalls, all: Observed): Promise<void> {
  const control = await perPageProbe(context, 'listWebhooks', (query, probe) => calls.list(query, probe));
  await pagination(
    context,
    'listWebhooks',
    all,
    control,
    async () => {
      const second = await calls.list({ per_page: 1, page: 2 });
      judge(
        context,
        'listWebhooks',
        'page_parameter',
        pageParameter('listWebhooks', control.json, second.status, second.json),
      );
    },
    'hooks',
  );
}

/** A hook's delivery list's paging: the per_page probe, then the page after the cursor (`all`: per_page=100). */
export async function deliveryListPaging(
  context: SequenceContext,
  calls: WebhooksCalls,
  hookId: number,
  all: Observed,
): Promise<void> {
  const control = await perPageProbe(context, 'listWebhookDeliveries', (query, probe) =>
    calls.listDeliveries(hookId, query, probe),
  );
  await pagination(
    context,
    'listWebhookDeliveries',
    all,
    control,
    () => cursorCheck(context, calls, hookId, all, control),
    'deliveries',
  );
}

/**
 * per_page_respected and the paging check of a list, once it holds at least two items (`all`: the list read with
 * per_page=100; `control`: with per_page=1). In read-only mode fewer than two is the user's choice of what to read.
 */
async function pagination(
  context: SequenceContext,
  operationId: string,
  all: Observed,
  control: Observed,
  page: () => Promise<void>,
  what: string,
): Promise<void> {
  const paging: CheckName = operationId === 'listWebhooks' ? 'page_parameter' : 'deliveries_cursor';
  if (!isSuccess(all.status)) {
    unexercised(
      context,
      operationId,
      ['per_page_respected', paging],
      `listing the ${what} with per_page=100 answered ${all.status}`,
    );
    return;
  }
  const available = Array.isArray(all.json) ? all.json.length : 0;
  if (available < 2) {
    const reason = `the list holds ${available} ${what}; paging needs two`;
    if (context.mode === 'read-only') {
      for (const check of ['per_page_respected', paging] as const)
        context.results.markSkipped(
          context.api,
          operationId,
          check,
          `--read-only: ${reason}, and read-only creates none`,
        );
    } else {
      unexercised(context, operationId, ['per_page_respected', paging], `${reason}, after this run made at least two`);
    }
    return;
  }
  judge(
    context,
    operationId,
    'per_page_respected',
    perPageRespected(operationId, 1, control.status, control.json, available),
  );
  await page();
}

async function cursorCheck(
  context: SequenceContext,
  calls: WebhooksCalls,
  hookId: number,
  all: Observed,
  control: Observed,
): Promise<void> {
  const expectedFirst = idsOf(all.json)[1];
  const cursor =
    nextCursor(headerValue(control.exchange.headers, 'link')) ??
    (typeof expectedFirst === 'number' ? String(expectedFirst) : undefined);
  if (cursor === undefined) {
    unexercised(
      context,
      'listWebhookDeliveries',
      ['deliveries_cursor'],
      'the second delivery of the list has no integer id and the page has no Link rel="next"',
    );
    return;
  }
  const page = await calls.listDeliveries(hookId, { per_page: 1, cursor });
  judge(
    context,
    'listWebhookDeliveries',
    'deliveries_cursor',
    deliveriesCursor('listWebhookDeliveries', cursor, expectedFirst, page.status, page.json),
  );
}
