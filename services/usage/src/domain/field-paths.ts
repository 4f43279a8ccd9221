/**
 * Property names as MongoDB field names: a name may hold `.` or start with `$`, so it is stored
 * percent-encoded (`.` → %2E, `$` → %24) behind a `k` (the empty name stays a valid field).
 */
export const fieldName = (property: string) => `k${encodeURIComponent(property).replace(/\./g, "%2E")}`;

export const propertyOf = (field: string) => decodeURIComponent(field.slice(1));
