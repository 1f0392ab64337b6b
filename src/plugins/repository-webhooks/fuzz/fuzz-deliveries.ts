// The embedded receiver as the stateful phase sees it: which of the run's hooks a delivery came for (by the
// contracts-fuzz tag its config.url carries), the secret it must be signed with, and the wait for the delivery a
// ping, a test or a redelivery triggered. The receiver itself checks each arrival (core/delivery).
import type { CheckName } from '../../../core/finding.js';
import type { Receiver, ReceiverOptions, StoredDelivery } from '../../../receiver/start-receiver.js';

export const deliveryChecks: readonly CheckName[] = [
  'delivery_signature',
  'delivery_headers',
  'delivery_payload_schema',
];

/** After a full wait brought nothing and nothing of the run ever arrived, later waits are this short. */
const unheardWaitMs = 500;

/** The tag of a hook URL (`contracts-fuzz=<marker>-<n>`), compared whole: `m-1` must not match `m-10`. */
export function hookTag(url: string): string | undefined {
  try {
    return new URL(url, 'http://receiver.invalid').searchParams.get('contracts-fuzz') ?? undefined;
  } catch {
    return undefined;
  }
}

export class FuzzDeliveries {
  /** By hook tag: the secret its deliveries are signed with (null: none may be signed). */
  private readonly secrets = new Map<string, string | null>();
  private unheard = false;

  constructor(readonly receiver: Receiver) {}

  /** The receiver's callback: a delivery to a hook the stateful phase made is held to that hook's secret. */
  static receiverOptions(deliveries: () => FuzzDeliveries | undefined): Pick<ReceiverOptions, 'secret'> {
    return { secret: ({ url }) => deliveries()?.secretOf(url) };
  }

  /** Deliveries to `hookUrl` must be signed with `secret`, or not at all. */
  expect(hookUrl: string, secret: string | undefined): void {
    const tag = hookTag(hookUrl);
    if (tag !== undefined) this.secrets.set(tag, secret ?? null);
  }

  /** Arrivals after this mark are new. */
  mark(): number {
    return this.receiver.deliveries.at(-1)?.seq ?? 0;
  }

  /** The first delivery to `hookUrl` after `since`, waiting up to `ms` (in slices, so --max-time and Ctrl-C end it). */
  async next(hookUrl: string, since: number, ms: number, expired: () => boolean): Promise<StoredDelivery | undefined> {
    const tag = hookTag(hookUrl);
    if (tag === undefined) return undefined;
    const deadline = Date.now() + (this.unheard && !this.heardAny() ? Math.min(ms, unheardWaitMs) : ms);
    const matches = (delivery: StoredDelivery) => delivery.seq > since && hookTag(delivery.url) === tag;
    let found: StoredDelivery | undefined;
    do {
      if (expired()) return undefined;
      found = await this.receiver.waitFor(matches, Math.max(0, Math.min(250, deadline - Date.now())));
    } while (!found && Date.now() < deadline);
    if (!found && !this.heardAny()) this.unheard = true;
    return found;
  }

  /** Why nothing arrived, when nothing of this run ever did. */
  hint(): string {
    return this.heardAny()
      ? ''
      : `; nothing of this run reached the receiver at ${this.receiver.url}: can the target reach it? (a target elsewhere needs --hook-url, and then the delivery checks are skipped)`;
  }

  private heardAny(): boolean {
    return this.receiver.deliveries.some((delivery) => {
      const tag = hookTag(delivery.url);
      return tag !== undefined && this.secrets.has(tag);
    });
  }

  private secretOf(url: string): string | null | undefined {
    const tag = hookTag(url);
    return tag === undefined ? undefined : this.secrets.get(tag);
  }
}
