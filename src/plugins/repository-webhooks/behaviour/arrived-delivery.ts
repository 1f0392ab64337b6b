// What a receiver saw of one delivery, as the behavioural delivery checks need it.
import { isDeepStrictEqual } from 'node:util';

export interface ArrivedDelivery {
  /** X-Service-Event, X-Service-Delivery as sent (undefined when missing). */
  event: string | undefined;
  guid: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  /** The payload as JSON, undefined when it could not be read. */
  payload: unknown;
  /** The status the receiver answered. */
  status: number;
}

export const sameJson = (a: unknown, b: unknown): boolean => isDeepStrictEqual(a, b);
