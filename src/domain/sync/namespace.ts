/**
 * Namespacing of names written to an app: `Name [namespace]`. A namespace keeps arrgo's entities
 * apart from the user's own (custom format and profile names are unique in the apps), and the
 * display name in a SyncChange is the app's name with the suffix stripped.
 */

export function namespaceSuffix(namespace: string | null): string {
  return namespace === null ? '' : ` [${namespace}]`;
}

/** The name written to the app for a PCD name. */
export function appName(name: string, namespace: string | null): string {
  return `${name}${namespaceSuffix(namespace)}`;
}

/** Whether an app name carries the namespace. Without a namespace every name qualifies. */
export function hasNamespace(name: string, namespace: string | null): boolean {
  if (namespace === null) return true;
  const suffix = namespaceSuffix(namespace);
  return name.length > suffix.length && name.endsWith(suffix);
}

/** The display name of an app name: the namespace suffix removed when present. */
export function displayName(name: string, namespace: string | null): string {
  if (namespace === null || !hasNamespace(name, namespace)) return name;
  return name.slice(0, name.length - namespaceSuffix(namespace).length);
}
