// The bookkeeping columns most tables share, declared once.
//
// Date properties are declared `type: 'Date'` everywhere, not 'datetime': with 'datetime' (a
// mapped type) on SQLite the ORM saw every loaded date as changed, and each flush rewrote the dates
// of every entity the EntityManager had loaded (a stale `last_pulled_at`, `created_at` rewritten,
// an extra UPDATE per entity). The stored values and column types are the same.

/** created_at, set when the row is inserted. */
export const createdAtColumn = () => ({ type: 'Date', fieldName: 'created_at', onCreate: () => new Date() });

/** updated_at, set on insert and on every update through the ORM. */
export const updatedAtColumn = () => ({ type: 'Date', fieldName: 'updated_at', onCreate: () => new Date(), onUpdate: () => new Date() });
