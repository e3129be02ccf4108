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
