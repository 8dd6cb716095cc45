/**
 * Entity types are spelled two ways across the API: the resolved reads use camelCase
 * (qualityProfile), the portable types, edits and graph node kinds snake_case (quality_profile).
 * Requests may use either spelling of any entity-type vocabulary; answers use its own spelling.
 * This module is the one place that says what the other spelling of an entity type is.
 */

/** quality_profile -> qualityProfile, qualityProfile -> quality_profile; a one-word name has none (null). */
export function otherSpelling(name: string): string | null {
  const other = name.includes('_') ? name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()) : name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return other === name ? null : other;
}

/** Alias -> canonical value for every value of an entity-type vocabulary that has another spelling. */
export function entityTypeAliases<T extends string>(values: readonly T[]): Record<string, T> {
  const aliases: Record<string, T> = {};
  for (const value of values) {
    const other = otherSpelling(value);
    if (other !== null && !(values as readonly string[]).includes(other)) aliases[other] = value;
  }
  return aliases;
}
