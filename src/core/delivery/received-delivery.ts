// One delivery as a receiver got it: method, headers and the raw body bytes (signatures are over the bytes).
import { ownValue } from '../own-key.js';

export interface ReceivedDelivery {
  method: string;
  /** Request headers as Node gives them (lower-case names; a repeated header may be an array). */
  headers: Record<string, string | string[] | undefined>;
  body: Uint8Array;
}

/** What the check knows of the hook the delivery is for. */
export interface DeliveryExpectation {
  /**
   * The hook's secret: a string when it has one (both signatures must verify with it), null when it has none (no
   * signature header may be sent), undefined when unknown (then `secrets`).
   */
  secret?: string | null;
  /** Without `secret`: each scheme's secret by the variable its config names (`secretEnv`); a scheme whose
   * variable is not here is not judged. */
  secrets?: Readonly<Record<string, string>>;
  /** The clock the timestamped schemes judge tolerance by (ms since the epoch; default now). */
  now?: number;
  /** The event the delivery must carry (a ping must arrive as ping). */
  event?: string;
  /** The hook's config.content_type: form deliveries are form-encoded, any other JSON. */
  contentType?: string;
}

/** A header's single value; a repeated header gives its values joined, which no documented header allows. */
export function deliveryHeader(delivery: ReceivedDelivery, name: string): string | undefined {
  const value = ownValue(delivery.headers, name.toLowerCase());
  return Array.isArray(value) ? value.join(', ') : value;
}
