// The bookkeeping columns most tables share, declared once.

/** created_at, set when the row is inserted. */
export const createdAtColumn = () => ({ type: 'datetime', fieldName: 'created_at', onCreate: () => new Date() });

/** updated_at, set on insert and on every update through the ORM. */
export const updatedAtColumn = () => ({ type: 'datetime', fieldName: 'updated_at', onCreate: () => new Date(), onUpdate: () => new Date() });
