/** Records are stored with their own `id` as Mongo's `_id`; these convert between the two shapes. */
export type WithMongoId<T extends { id: string }> = Omit<T, 'id'> & { _id: string };

export function toDoc<T extends { id: string }>(rec: T): WithMongoId<T> {
  const { id, ...rest } = rec;
  return { _id: id, ...rest };
}

export function fromDoc<T extends { id: string }>(doc: WithMongoId<T>): T {
  const { _id, ...rest } = doc;
  return { id: _id, ...rest } as unknown as T;
}

export const DUPLICATE_KEY = 11000;

export function isDuplicateKey(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === DUPLICATE_KEY;
}

export const CURSOR_NOT_FOUND = 43;

function codeOf(err: unknown): unknown {
  return typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
}

/**
 * Reads a whole query. A cursor the server dropped between batches (CursorNotFound: idle past the server's
 * cursor timeout, or killed when its primary stepped down) cannot be resumed, and the driver does not retry a
 * `getMore`: the query is read again from the start, once. Every read here is idempotent.
 */
export async function readAll<T>(query: () => { toArray(): Promise<T[]> }): Promise<T[]> {
  try {
    return await query().toArray();
  } catch (err) {
    if (codeOf(err) !== CURSOR_NOT_FOUND) throw err;
    return query().toArray();
  }
}
