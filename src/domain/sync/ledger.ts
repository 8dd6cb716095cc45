/**
 * The sync ledger (pure side): which app entity stands for which PCD entity on one instance.
 *
 * arrgo remembers, per instance, the app id of every custom format and quality profile it manages
 * with the stable identity of the PCD entity it came from (`<databaseId>:<name before the first
 * rename>`, see pcd/identity.ts and scopeIdentities). planSync matches desired entities with live
 * ones through it (matchEntities), so a rename in the PCD or by hand on the app keeps the app's id;
 * the apply writes what the plan bound (ledgerWrites). See docs/sync.md, "Identity and the ledger".
 */
import { identityDatabase } from './source';
import type { NamedId, UnmanagedReason } from './types';

export const LEDGER_ENTITY_TYPES = ['customFormat', 'qualityProfile'] as const;
export type LedgerEntityType = (typeof LEDGER_ENTITY_TYPES)[number];

/** One ledger row of an instance, as planSync reads it. */
export interface LedgerEntry {
  entityType: LedgerEntityType;
  appId: number;
  /** Scoped identity (`<databaseId>:<origin name>`). */
  identity: string;
  /** The app name arrgo last wrote. */
  name: string;
  /** arrgo created the app entity (as opposed to finding it by name). */
  createdByArrgo: boolean;
}

/**
 * A desired entity bound to an app entity by a plan: `appId` null when the apply creates it (its id
 * comes from the step's outcome, `stepId`). The apply writes one ledger row per binding.
 */
export interface IdentityBinding {
  entityType: LedgerEntityType;
  identity: string;
  appId: number | null;
  /** The app name the apply writes (namespaced). */
  name: string;
  /** The upsert step writing the entity; null when it is in sync (no step). */
  stepId: string | null;
}

/** How the preview's bindings were found (preview body `identity`). */
export interface IdentitySummary {
  /** Bindings found by name because the ledger had no usable entry (missing or stale): written by the next apply. */
  rebuilt: number;
  /** Entities matched through the ledger whose app name differs from the desired name (a rename, either side). */
  renamed: number;
  /** Ledger entries of desired entities whose app id no longer exists on the app. */
  stale: number;
}

export const UNMANAGED_REASON_TEXT: Record<UnmanagedReason, string> = {
  notManaged: 'arrgo did not create this entity and no selected PCD entity stands for it',
  noLongerSelected: 'arrgo created this entity, and the selection no longer includes it',
};

export interface EntityMatch<T> {
  live: T | null;
  /** Matched through the ledger (by app id) rather than by name. */
  byLedger: boolean;
}

/**
 * Matches desired entities (name on the app, scoped identity) with live ones. A ledger entry whose
 * app id still exists wins, unless the desired name is held by another live entity (then the name
 * decides). Entities renamed since the ledger was written claim their ledger entry first, so a
 * newcomer taking a renamed entity's old name is matched by name, never to the renamed one's id.
 * Each live entity is matched at most once. Counts go into `summary`.
 */
export function matchEntities<T extends NamedId>(
  desired: readonly { name: string; identity: string }[],
  live: readonly T[],
  ledger: readonly LedgerEntry[],
  summary: IdentitySummary,
): Map<string, EntityMatch<T>> {
  const byId = new Map(live.map((e) => [e.id, e]));
  const byName = new Map(live.map((e) => [e.name, e]));
  const entries = new Map<string, LedgerEntry[]>();
  for (const entry of ledger) entries.set(entry.identity, [...(entries.get(entry.identity) ?? []), entry]);
  const claimed = new Set<number>();
  const out = new Map<string, EntityMatch<T>>();

  const ledgerLive = (d: { name: string; identity: string }): T | null => {
    for (const entry of entries.get(d.identity) ?? []) {
      const target = byId.get(entry.appId);
      if (!target || claimed.has(target.id)) continue;
      const holder = byName.get(d.name);
      if (holder && holder.id !== target.id) continue;
      return target;
    }
    return null;
  };
  // Renames first: a desired entity whose ledger entity carries another name.
  const order = [...desired].sort((a, b) => Number(ledgerLive(a)?.name === a.name) - Number(ledgerLive(b)?.name === b.name));
  for (const d of order) {
    const target = ledgerLive(d);
    if (!target) continue;
    claimed.add(target.id);
    out.set(d.name, { live: target, byLedger: true });
    if (target.name !== d.name) summary.renamed++;
  }
  for (const d of desired) {
    if (out.has(d.name)) continue;
    const known = entries.get(d.identity) ?? [];
    if (known.length > 0 && known.every((e) => !byId.has(e.appId))) summary.stale++;
    const named = byName.get(d.name);
    const target = named && !claimed.has(named.id) ? named : null;
    if (target) {
      claimed.add(target.id);
      if (!known.some((e) => e.appId === target.id)) summary.rebuilt++;
    }
    out.set(d.name, { live: target, byLedger: false });
  }
  return out;
}

/** Why a live entity no desired entity matched is unmanaged. */
export function unmanagedReason(appId: number, entityType: LedgerEntityType, ledger: readonly LedgerEntry[]): UnmanagedReason {
  return ledger.some((e) => e.entityType === entityType && e.appId === appId && e.createdByArrgo) ? 'noLongerSelected' : 'notManaged';
}

/** A ledger row the apply writes. */
export interface LedgerWrite {
  entityType: LedgerEntityType;
  appId: number;
  identity: string;
  name: string;
  /** The database the identity comes from. */
  databaseId: number;
  /** The apply created it (an existing row keeps true once set). */
  created: boolean;
}

/**
 * What an apply writes to the ledger from the plan's bindings and the steps' outcomes: a row per
 * binding whose app id is known (a create's from its outcome; a binding whose step did not run
 * yet, or failed, writes nothing; so does an identity not scoped to a database), and the app ids of
 * deleted entities.
 */
export function ledgerWrites(
  bindings: readonly IdentityBinding[],
  outcomes: readonly { stepId: string; outcome: string; remoteId: number | null }[],
  deleteSteps: readonly { id: string; kind: string }[],
): { upserts: LedgerWrite[]; deletes: { entityType: LedgerEntityType; appId: number }[] } {
  const byStep = new Map(outcomes.map((o) => [o.stepId, o]));
  const upserts: LedgerWrite[] = [];
  for (const b of bindings) {
    const outcome = b.stepId === null ? undefined : byStep.get(b.stepId);
    const appId = outcome?.remoteId ?? b.appId;
    const databaseId = identityDatabase(b.identity);
    if (appId === null || databaseId === null || (b.stepId !== null && !outcome)) continue;
    upserts.push({ entityType: b.entityType, appId, identity: b.identity, name: b.name, databaseId, created: outcome?.outcome === 'created' });
  }
  const deletes: { entityType: LedgerEntityType; appId: number }[] = [];
  for (const step of deleteSteps) {
    const outcome = byStep.get(step.id);
    if (outcome?.outcome === 'deleted' && outcome.remoteId !== null) deletes.push({ entityType: step.kind as LedgerEntityType, appId: outcome.remoteId });
  }
  return { upserts, deletes };
}
