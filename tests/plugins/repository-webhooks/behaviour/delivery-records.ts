// A delivery record (endpoint 4) whose request headers are the seed's, for the behavioural rules' tests.
export const op = 'op';
export const guid = '4f1c2a52-6a3c-4e43-9d6c-1c2b3a4d5e6f';
export const goodHeaders: Record<string, string | undefined> = {
  'X-Service-Delivery': guid,
  'X-Service-Event': 'ping',
  'X-Service-Hook-ID': '5',
  'X-Hub-Signature-256': `sha256=${'a'.repeat(64)}`,
  'X-Hub-Signature': `sha1=${'b'.repeat(40)}`,
};
export const goodDelivery = { id: 1, guid, event: 'ping', request: { headers: goodHeaders, payload: {} } };

/** The good record with some headers changed (undefined: left out). */
export const withHeaders = (changes: Record<string, string | undefined>) => {
  const headers = { ...goodHeaders, ...changes };
  for (const [name, value] of Object.entries(headers)) if (value === undefined) delete headers[name];
  return { ...goodDelivery, request: { headers, payload: {} } };
};
