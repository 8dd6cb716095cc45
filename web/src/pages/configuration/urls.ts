import type { ArrType } from '../../api/types';
import type { PortableType, ResolvedEntityType } from '../../api/pcd';

/** An entity's page (the link every area uses). */
export function entityUrl(databaseId: number, portableType: PortableType, name: string): string {
  return `/configuration/${databaseId}/${portableType}/${encodeURIComponent(name)}`;
}

/** A database's list of one type; without an entity, the database's default list. */
export function listUrl(databaseId: number, entity?: { entityType: string; arrType?: ArrType | null }): string {
  const query = new URLSearchParams({ database: String(databaseId) });
  if (entity) query.set('type', entity.entityType as ResolvedEntityType);
  if (entity?.arrType) query.set('arrType', entity.arrType);
  return `/configuration?${query.toString()}`;
}

/** The compare page on one entity. */
export function compareUrl(databaseId: number, entity: { entityType: string; name: string }): string {
  return `/compare?${new URLSearchParams({ database: String(databaseId), type: entity.entityType, name: entity.name }).toString()}`;
}
