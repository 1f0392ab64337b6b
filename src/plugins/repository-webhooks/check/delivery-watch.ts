// The full sequence's view of the embedded receiver: which of this run's hooks a delivery was for (by the query
// its config.url carries), what it must be (the hook's secret or none), and the delivery checks each arrival is
// judged by, under the operation that triggered it.
import type { ArrivedDelivery } from '../behaviour/index.js';
import type { DeliveryExpectation } from '../../../core/delivery/index.js';
import { ContractsError } from '../../../core/errors.js';
import type { CheckName } from '../../../core/finding.js';
import type { Receiver, ReceiverOptions, StoredDelivery } from '../../../receiver/start-receiver.js';
import { judge, unexercised, type SequenceContext } from '../../../runner/sequence-context.js';

const unheardWaitMs = 500;

export const deliveryChecks: readonly CheckName[] = [
  'delivery_signature',
  'delivery_headers',
  'delivery_payload_schema',
];

export class DeliveryWatch {
  private readonly expectations = new Map<string, DeliveryExpectation>();
  /** A wait ended with nothing, and nothing of this run has ever arrived: the target likely cannot reach us. */
  private unheard = false;

  /** `interrupted`: whether the run was asked to stop (Ctrl-C). */
  constructor(
    readonly receiver: Receiver,
    private readonly interrupted: () => boolean = () => false,
  ) {}

  /** The receiver's callbacks: a delivery is held to what the hook whose URL it came to was given. */
  static receiverOptions(watch: () => DeliveryWatch | undefined): Pick<ReceiverOptions, 'secret' | 'expect'> {
    return {
      secret: ({ url }) => watch()?.lookup(url)?.secret,
      expect: ({ url }) => {
        const contentType = watch()?.lookup(url)?.contentType;
        return contentType === undefined ? {} : { contentType };
      },
    };
  }

  /** Deliveries whose URL holds `key` (a hook's marker) must be as `expectation` says. */
  expect(key: string, expectation: DeliveryExpectation): void {
    this.expectations.set(key, expectation);
  }

  /** The last sequence number so far: arrivals after it are new. */
  mark(): number {
    return this.receiver.deliveries.at(-1)?.seq ?? 0;
  }

  /**
   * The first delivery for hook `key` after `since`, waiting up to `ms`. Once a full wait brought nothing and no
   * delivery of this run has arrived at all, later waits are cut to `unheardWaitMs`: a target that cannot reach the
   * receiver (a staging outside the machine, without --hook-url) fails every arrival check without a wait for each.
   */
  async next(key: string, since: number, ms: number): Promise<StoredDelivery | undefined> {
    const deadline = Date.now() + (this.unheard && !this.heardAny() ? Math.min(ms, unheardWaitMs) : ms);
    const matches = (delivery: StoredDelivery) => delivery.seq > since && delivery.url.includes(key);
    let found: StoredDelivery | undefined;
    // In slices, so Ctrl-C ends a wait at once, as it ends the API polls: the run then cleans up.
    do {
      if (this.interrupted()) throw new ContractsError('INTERRUPTED', 'interrupted while waiting for a delivery');
      found = await this.receiver.waitFor(matches, Math.max(0, Math.min(250, deadline - Date.now())));
    } while (!found && Date.now() < deadline);
    if (!found && !this.heardAny()) this.unheard = true;
    return found;
  }

  /** What to look at when nothing of this run arrived. */
  hint(): string {
    return this.heardAny()
      ? ''
      : `nothing of this run reached the receiver at ${this.receiver.url}; can the target reach it? (a staging outside this machine needs --hook-url to a public tunnel and --receiver-port)`;
  }

  private heardAny(): boolean {
    const keys = [...this.expectations.keys()];
    return this.receiver.deliveries.some((delivery) => keys.some((key) => delivery.url.includes(key)));
  }

  /** Every delivery for hook `key` after `since`, so far. */
  since(key: string, since: number): StoredDelivery[] {
    return this.receiver.deliveries.filter((delivery) => delivery.seq > since && delivery.url.includes(key));
  }

  private lookup(url: string): DeliveryExpectation | undefined {
    for (const [key, expectation] of this.expectations) if (url.includes(key)) return expectation;
    return undefined;
  }
}

export function arrivedOf(delivery: StoredDelivery): ArrivedDelivery {
  return {
    event: delivery.result.event,
    guid: delivery.result.guid,
    headers: delivery.headers,
    payload: delivery.result.payload,
    status: delivery.status,
  };
}

/** Judges the delivery checks on what arrived after `operationId`'s call; nothing arrived: not exercised. */
export function judgeArrivals(
  context: SequenceContext,
  operationId: string,
  arrivals: readonly StoredDelivery[],
  nothing: string,
): void {
  if (arrivals.length === 0) {
    unexercised(context, operationId, deliveryChecks, nothing);
    return;
  }
  for (const delivery of arrivals) {
    for (const check of deliveryChecks) {
      if (delivery.result.applied.includes(check))
        judge(
          context,
          operationId,
          check,
          delivery.result.findings.filter((finding) => finding.check === check),
        );
    }
  }
}
