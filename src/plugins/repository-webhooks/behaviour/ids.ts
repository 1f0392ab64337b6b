// Reading ids from response bodies that may be any JSON (a hostile target chooses them).

/** The ids of a list's items (undefined for an item without one); [] for anything but an array. */
export const idsOf = (list: unknown): unknown[] => (Array.isArray(list) ? list.map((item) => idOf(item)) : []);

/** The `id` of an object when it is an integer. */
export function idOf(body: unknown): number | undefined {
  const id = body !== null && typeof body === 'object' ? (body as { id?: unknown }).id : undefined;
  return Number.isSafeInteger(id) ? (id as number) : undefined;
}

/** The items of a list that are objects; the rest of a hostile list is left out. */
export const objectsOf = (list: unknown): Record<string, unknown>[] =>
  Array.isArray(list)
    ? list.filter(
        (item): item is Record<string, unknown> => item !== null && typeof item === 'object' && !Array.isArray(item),
      )
    : [];
