// Progressive disclosure: each section's mode (GET/PATCH /ui-preferences) and complexity tier with
// its activity counters (GET/PATCH /complexity-tiers). Both PATCHes carry the row's updated_at as
// an optimistic-concurrency token; a 409 hands back the stored row (`current`), and the write is
// tried once more on top of it. Activity is counted here and sent in batches.
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { api, ApiError, unwrap, type components } from './client';

type Schemas = components['schemas'];
export type DisclosureMode = Schemas['DisclosureMode'];
export type ComplexityTierLevel = Schemas['ComplexityTierLevel'];
export type UiPreference = Schemas['UiPreference'];
export type ComplexityTier = Schemas['ComplexityTier'];

/** Section keys as the API takes them: `<area>:<page>:<section>`. */
export const SECTION_KEY_PATTERN = /^[a-z0-9-]+:[a-z0-9-]+:[a-z0-9-]+$/;

const PREFERENCES_KEY = ['ui-preferences'] as const;
const TIERS_KEY = ['complexity-tiers'] as const;

/** The listings are read whole, at the API's largest page size, at most this many pages. */
const LIST_PAGE_SIZE = 200;
const LIST_PAGES_MAX = 20;

/**
 * Activity is sent at most this often per section (the API stores at most 30 updates of a section a
 * minute), each request within the API's bounds (ComplexityTierPatch: interaction_delta 0..100,
 * advanced_toggle_delta 0..20); what is over a bound waits for the next request.
 */
const FLUSH_DELAY_MS = 2_000;
const INTERACTION_DELTA_MAX = 100;
const ADVANCED_TOGGLE_DELTA_MAX = 20;

type Row = { section_key: string; updated_at: string | null };
type Page<T> = { items: T[]; hasNext: boolean };

async function readAll<T extends Row>(read: (page: number) => Promise<Page<T>>): Promise<Record<string, T>> {
  const rows: Record<string, T> = {};
  for (let page = 1; page <= LIST_PAGES_MAX; page++) {
    const answer = await read(page);
    for (const row of answer.items) rows[row.section_key] = row;
    if (!answer.hasNext) break;
  }
  return rows;
}

function usePreferences() {
  return useQuery({
    queryKey: PREFERENCES_KEY,
    queryFn: () => readAll((page) => unwrap(api.GET('/api/v1/ui-preferences', { params: { query: { page, pageSize: LIST_PAGE_SIZE } } }))),
    staleTime: Infinity,
  });
}

function useTiers() {
  return useQuery({
    queryKey: TIERS_KEY,
    queryFn: () => readAll((page) => unwrap(api.GET('/api/v1/complexity-tiers', { params: { query: { page, pageSize: LIST_PAGE_SIZE } } }))),
    staleTime: Infinity,
  });
}

function cached<T extends Row>(queryClient: QueryClient, key: readonly string[], sectionKey: string): T | null {
  return queryClient.getQueryData<Record<string, T>>(key)?.[sectionKey] ?? null;
}

function store<T extends Row>(queryClient: QueryClient, key: readonly string[], row: T): void {
  queryClient.setQueryData<Record<string, T>>(key, (rows) => ({ ...rows, [row.section_key]: row }));
}

/**
 * A write guarded by updated_at: first on top of the row this page last read, and on a 409 once
 * more on top of the row the API says is stored.
 */
async function writeGuarded<T extends Row>(base: T | null, write: (base: T | null) => Promise<T>): Promise<T> {
  try {
    return await write(base);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 409 || !error.body || typeof error.body !== 'object' || !('current' in error.body)) throw error;
    return write((error.body as { current: T | null }).current);
  }
}

const patchPreference = (sectionKey: string, mode: DisclosureMode) => (base: UiPreference | null) =>
  unwrap(api.PATCH('/api/v1/ui-preferences', { body: { section_key: sectionKey, mode, expected_updated_at: base?.updated_at ?? null } }));

type TierChange = Omit<Schemas['ComplexityTierPatch'], 'section_key' | 'tier' | 'expected_updated_at'> & { tier?: ComplexityTierLevel };

const patchTier = (sectionKey: string, change: TierChange) => (base: ComplexityTier | null) =>
  unwrap(
    api.PATCH('/api/v1/complexity-tiers', {
      body: { ...change, section_key: sectionKey, tier: change.tier ?? base?.tier ?? 'beginner', expected_updated_at: base?.updated_at ?? null },
      // Activity sent as the page is left still arrives.
      keepalive: true,
    }),
  );

/** Counts a page's activity per section and sends it in batches (see FLUSH_DELAY_MS). */
class ActivityReporter {
  private readonly pending = new Map<string, { interactions: number; toggles: number }>();
  private readonly sending = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly queryClient: QueryClient) {
    // What is counted when the user leaves is sent then.
    window.addEventListener('pagehide', () => void this.flush());
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') void this.flush();
    });
  }

  report(sectionKey: string, activity: { interactions?: number; toggles?: number }): void {
    const counts = this.pending.get(sectionKey) ?? { interactions: 0, toggles: 0 };
    counts.interactions += activity.interactions ?? 0;
    counts.toggles += activity.toggles ?? 0;
    this.pending.set(sectionKey, counts);
    this.schedule(FLUSH_DELAY_MS);
  }

  private schedule(delayMs: number): void {
    if (this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, delayMs);
  }

  async flush(): Promise<void> {
    await Promise.all([...this.pending.keys()].filter((key) => !this.sending.has(key)).map((key) => this.send(key)));
  }

  private async send(sectionKey: string): Promise<void> {
    const counts = this.pending.get(sectionKey);
    if (!counts) return;
    const interaction_delta = Math.min(counts.interactions, INTERACTION_DELTA_MAX);
    const advanced_toggle_delta = Math.min(counts.toggles, ADVANCED_TOGGLE_DELTA_MAX);
    this.pending.delete(sectionKey);
    this.sending.add(sectionKey);
    let retryInMs = FLUSH_DELAY_MS;
    try {
      const row = await writeGuarded(cached<ComplexityTier>(this.queryClient, TIERS_KEY, sectionKey), patchTier(sectionKey, { interaction_delta, advanced_toggle_delta }));
      store(this.queryClient, TIERS_KEY, row);
      this.carry(sectionKey, { interactions: counts.interactions - interaction_delta, toggles: counts.toggles - advanced_toggle_delta });
    } catch (error) {
      // Rate-limited: keep the counts for later. Any other refusal drops them (they are a hint, not a record).
      if (error instanceof ApiError && error.status === 429) {
        this.carry(sectionKey, counts);
        retryInMs = (error.retryAfterSeconds ?? 60) * 1000;
      }
    } finally {
      this.sending.delete(sectionKey);
    }
    if (this.pending.has(sectionKey)) this.schedule(retryInMs);
  }

  private carry(sectionKey: string, left: { interactions: number; toggles: number }): void {
    if (left.interactions <= 0 && left.toggles <= 0) return;
    const counts = this.pending.get(sectionKey) ?? { interactions: 0, toggles: 0 };
    this.pending.set(sectionKey, { interactions: counts.interactions + left.interactions, toggles: counts.toggles + left.toggles });
  }
}

const reporters = new WeakMap<QueryClient, ActivityReporter>();

function reporterOf(queryClient: QueryClient): ActivityReporter {
  let reporter = reporters.get(queryClient);
  if (!reporter) {
    reporter = new ActivityReporter(queryClient);
    reporters.set(queryClient, reporter);
  }
  return reporter;
}

const TIER_RANK: Record<ComplexityTierLevel, number> = { beginner: 0, intermediate: 1, advanced: 2 };

export interface SectionDisclosure {
  /** The stored mode; without one, advanced from the intermediate tier on, else basic. */
  mode: DisclosureMode;
  /** The stored mode and tier are known (until then the section shows its basic content). */
  ready: boolean;
  tier: ComplexityTierLevel;
  /** A higher tier the API suggests for the section, until the user takes or dismisses it. */
  suggestion: ComplexityTierLevel | null;
  setMode(mode: DisclosureMode): void;
  /** Counts one interaction with the section (sent in a batch). */
  reportInteraction(): void;
  acceptSuggestion(): void;
  dismissSuggestion(): void;
  /** The API refused the last change of mode or tier (its {error} text). */
  error: unknown;
}

/** One section's disclosure state and its actions; see components/Disclosure.tsx. */
export function useSectionDisclosure(sectionKey: string): SectionDisclosure {
  if (!SECTION_KEY_PATTERN.test(sectionKey)) throw new Error(`Section key ${sectionKey} is not <area>:<page>:<section>`);
  const queryClient = useQueryClient();
  const preferences = usePreferences();
  const tiers = useTiers();
  const reporter = reporterOf(queryClient);
  useEffect(() => () => void reporter.flush(), [reporter]);

  const setMode = useMutation({
    scope: { id: `ui-preference:${sectionKey}` },
    mutationFn: (mode: DisclosureMode) => writeGuarded(cached<UiPreference>(queryClient, PREFERENCES_KEY, sectionKey), patchPreference(sectionKey, mode)),
    onMutate: (mode) => {
      // The section opens or closes at once; the token stays the stored row's.
      const stored = cached<UiPreference>(queryClient, PREFERENCES_KEY, sectionKey);
      store(queryClient, PREFERENCES_KEY, { section_key: sectionKey, updated_at: null, persisted: false, ...stored, mode });
      if (mode === 'advanced') reporter.report(sectionKey, { toggles: 1 });
      return stored;
    },
    onSuccess: (row) => store(queryClient, PREFERENCES_KEY, row),
    onError: () => void queryClient.invalidateQueries({ queryKey: PREFERENCES_KEY }),
  });

  const changeTier = useMutation({
    scope: { id: `complexity-tier:${sectionKey}` },
    mutationFn: (change: TierChange) => writeGuarded(cached<ComplexityTier>(queryClient, TIERS_KEY, sectionKey), patchTier(sectionKey, change)),
    onSuccess: (row) => store(queryClient, TIERS_KEY, row),
  });

  const preference = preferences.data?.[sectionKey] ?? null;
  const tierRow = tiers.data?.[sectionKey] ?? null;
  const tier = tierRow?.tier ?? 'beginner';
  const suggestion = tierRow && tierRow.last_suggested_tier && !tierRow.suggestion_dismissed_at && TIER_RANK[tierRow.last_suggested_tier] > TIER_RANK[tier] ? tierRow.last_suggested_tier : null;
  const mode: DisclosureMode = preference?.mode ?? (TIER_RANK[tier] >= TIER_RANK.intermediate ? 'advanced' : 'basic');

  return useMemo(
    () => ({
      mode,
      ready: preferences.isSuccess && tiers.isSuccess,
      tier,
      suggestion,
      setMode: (next: DisclosureMode) => setMode.mutate(next),
      reportInteraction: () => reporter.report(sectionKey, { interactions: 1 }),
      acceptSuggestion: () => {
        if (!suggestion) return;
        changeTier.mutate({ tier: suggestion });
        if (mode !== 'advanced') setMode.mutate('advanced');
      },
      dismissSuggestion: () => changeTier.mutate({ suggestion_dismissed_at: new Date().toISOString() }),
      error: setMode.error ?? changeTier.error,
    }),
    [mode, preferences.isSuccess, tiers.isSuccess, tier, suggestion, sectionKey, reporter, setMode.error, changeTier.error, setMode.mutate, changeTier.mutate],
  );
}
