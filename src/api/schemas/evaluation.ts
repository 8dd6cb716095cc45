import { DIALECT_DIFFERENCES } from '../../domain/evaluation';
import { idValue, int, INT32_MAX, text, z } from '../http/zod';

/** Request bounds of POST /entity-testing/evaluate. */
export const EVALUATE_LIMITS = { releases: 1000, titleLength: 1000, explainReleases: 50, profileNameLength: 100 } as const;

const ReleaseInputSchema = z
  .object({
    id: int(0, INT32_MAX).openapi({ description: 'Caller-chosen id (0 to 2^31-1), unique within the request; echoed as releaseId' }),
    // Not trimmed: the title is evaluated exactly as sent.
    title: text({ min: 1, max: EVALUATE_LIMITS.titleLength, trim: false }).openapi({
      description: `Release title, 1 to ${EVALUATE_LIMITS.titleLength} characters, no control characters`,
    }),
    type: z.enum(['movie', 'series']).openapi({ description: 'movie: evaluated as Radarr (movie_app) would; series: as Sonarr (series_app) would' }),
  })
  .strict();

export const EvaluateBodySchema = z
  .object({
    databaseId: idValue()
      .optional()
      .openapi({ description: 'PCD database whose custom formats are evaluated. Optional: without it only parsing runs and cfMatches is {}' }),
    releases: z
      .array(ReleaseInputSchema)
      .min(1)
      .max(EVALUATE_LIMITS.releases)
      .superRefine((releases, ctx) => {
        const seen = new Map<number, number>();
        releases.forEach((r, i) => {
          const first = seen.get(r.id);
          if (first !== undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [i, 'id'], message: `duplicates the id of releases.${first} (ids must be unique)` });
          else seen.set(r.id, i);
        });
      })
      .openapi({ description: `1 to ${EVALUATE_LIMITS.releases} releases with unique ids` }),
    explain: z
      .boolean()
      .optional()
      .openapi({ description: `Adds, per release and custom format, which conditions passed or failed and why. Needs databaseId; at most ${EVALUATE_LIMITS.explainReleases} releases` }),
    profileName: text({ min: 1, max: EVALUATE_LIMITS.profileNameLength })
      .optional()
      .openapi({ description: "Quality profile of the database: adds each release's custom-format score in it (for the release type's app) and whether it meets the profile's minimum and upgrade-until scores. Needs databaseId" }),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.explain && body.databaseId === undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['explain'], message: 'needs databaseId (explain describes custom-format matching)' });
    if (body.profileName !== undefined && body.databaseId === undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['profileName'], message: 'needs databaseId' });
    if (body.explain && body.releases.length > EVALUATE_LIMITS.explainReleases) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['explain'], message: `is allowed with at most ${EVALUATE_LIMITS.explainReleases} releases (got ${body.releases.length})` });
    }
  })
  .openapi('EvaluateRequest');

const ParsedSchema = z
  .object({
    title: z.string().openapi({ description: 'Movie or series title as parsed' }),
    year: z.number().int().nullable(),
    source: z.string().openapi({ description: "Radarr's quality source, lower-cased: unknown, cam, telesync, telecine, workprint, dvd, tv, webdl, webrip, bluray" }),
    resolution: z.number().int().nullable().openapi({ description: 'Vertical resolution (480, 720, 1080, 2160, ...), null when the title names none' }),
    modifier: z.string().openapi({ description: "Radarr's quality modifier: none, regional, screener, rawhd, brdisk, remux" }),
    revision: z.object({ version: z.number().int(), real: z.number().int(), isRepack: z.boolean(), isProper: z.boolean() }),
    languages: z.array(z.string()).openapi({ description: "Language names as the apps name them (e.g. English, French, Portuguese (Brazil))" }),
    releaseGroup: z.string().nullable(),
    edition: z.string().nullable(),
    releaseType: z.string().nullable().openapi({ description: "Series only (Sonarr's release type): singleEpisode, multiEpisode, seasonPack, unknown; null for movies" }),
    series: z
      .object({
        seasonNumber: z.number().int().nullable(),
        episodeNumbers: z.array(z.number().int()),
        absoluteEpisodeNumbers: z.array(z.number().int()),
        fullSeason: z.boolean(),
        airDate: z.string().nullable().openapi({ description: 'Daily shows: the air date, YYYY-MM-DD (the release type is then unknown, as in Sonarr)' }),
        seasonNumbers: z.array(z.number().int()).openapi({ description: 'Every season of a multi-season pack (S01-S03: 1, 2, 3)' }),
        special: z.boolean().openapi({ description: 'A special as Sonarr sees one: season 0, episode 0, a decimal episode, "Special" after a season, anime OVA/NCOP' }),
      })
      .nullable()
      .openapi({ description: "Series only: Sonarr's season/episode numbers; null for movies" }),
  })
  .openapi('ParsedRelease');

const ConditionExplanationSchema = z.object({
  name: z.string(),
  type: z.string().openapi({ description: 'PCD condition type (release_title, release_group, edition, language, indexer_flag, source, resolution, quality_modifier, size, release_type, year)' }),
  required: z.boolean(),
  negate: z.boolean(),
  result: z.enum(['pass', 'fail', 'notEvaluable', 'leftOut']).openapi({
    description: 'After negate. notEvaluable: a title cannot decide it (size, indexer flags, original language, untranslatable pattern). leftOut: the app would not have this condition (another family, a type or value the app lacks), as a sync leaves it out',
  }),
  reason: z.string(),
});

const FormatExplanationSchema = z.object({
  customFormatId: z.number().int(),
  name: z.string(),
  result: z.enum(['match', 'noMatch', 'undecided', 'notApplicable']).openapi({
    description: 'undecided: the format matches or not depending on conditions a title cannot decide (reported false in cfMatches). notApplicable: no condition applies to the app',
  }),
  conditions: z.array(ConditionExplanationSchema),
});

const ScoreSchema = z.object({
  profileName: z.string(),
  arrType: z.string(),
  score: z.number().int().openapi({ description: "Sum of the profile's scores of the matching formats (the app's own score overrides an all score)" }),
  minimumCustomFormatScore: z.number().int(),
  upgradeUntilScore: z.number().int(),
  meetsMinimum: z.boolean(),
  reachesUpgradeUntil: z.boolean(),
  undecided: z.array(z.object({ customFormatId: z.number().int(), name: z.string(), score: z.number().int() })).openapi({ description: 'Scored formats a title cannot decide; they may change the total' }),
});

export const EvaluateResponseSchema = z
  .object({
    parserAvailable: z.boolean().openapi({ description: 'false only when the release parser failed to load: parsed is then null and only release-title conditions are evaluated' }),
    parserVersion: z.string().nullable(),
    customFormats: z.record(z.string()).openapi({
      description:
        'Custom format id -> name, for every id the evaluations report (cfMatches, cfUndecided, explain, score); {} without databaseId. The same ids are in GET /pcd/{databaseId}/resolved/customFormat (id) and GET /pcd/export (id)',
      example: { '12': 'DV HDR10' },
    }),
    evaluations: z.array(
      z.object({
        releaseId: z.number().int(),
        title: z.string(),
        parsed: ParsedSchema.nullable().openapi({ description: 'null when the title cannot be parsed at all (or the parser is unavailable)' }),
        cfMatches: z.record(z.boolean()).openapi({ description: 'Custom format id in the database -> whether it matches; {} without databaseId' }),
        cfUndecided: z.array(z.number().int()).openapi({ description: 'Ids of formats whose match depends on conditions a title cannot decide (false in cfMatches)' }),
        warnings: z.array(z.string()).openapi({ description: 'E.g. a pattern that ran past the per-match deadline (it counted as no match)' }),
        explain: z.array(FormatExplanationSchema).optional(),
        score: ScoreSchema.optional(),
      }),
    ),
  })
  .openapi('EvaluateResponse');

/** Request bounds of POST /entity-testing/regex. */
export const REGEX_TEST_LIMITS = { patternLength: 1000, testStrings: 100, testStringLength: 1000 } as const;

export const RegexTestBodySchema = z
  .object({
    // Not trimmed: a pattern's spaces are part of it.
    pattern: text({ min: 1, max: REGEX_TEST_LIMITS.patternLength, trim: false }).openapi({
      description: `.NET regular expression, 1 to ${REGEX_TEST_LIMITS.patternLength} characters, no control characters; matched case-insensitively, as the apps match custom-format patterns`,
    }),
    testStrings: z
      .array(text({ min: 1, max: REGEX_TEST_LIMITS.testStringLength, trim: false }))
      .max(REGEX_TEST_LIMITS.testStrings)
      .default([])
      .openapi({ description: `0 to ${REGEX_TEST_LIMITS.testStrings} texts of 1 to ${REGEX_TEST_LIMITS.testStringLength} characters, matched exactly as sent` }),
  })
  .strict()
  .openapi('RegexTestRequest');

const MatchOutcomeSchema = z.enum(['match', 'noMatch', 'timedOut']).openapi({ description: "timedOut: the match ran past the per-match deadline (deadlineMs) and was stopped, or an earlier test string's did (later ones are not run)" });

export const RegexTestResponseSchema = z
  .object({
    pattern: z.string(),
    valid: z.boolean().openapi({ description: '.NET accepts the pattern and arrgo evaluates it the .NET way; false: reason says why (a custom format with it is not evaluable)' }),
    reason: z.string().nullable(),
    offset: z.number().int().nullable().openapi({ description: 'Offset in the pattern the reason points at, when known' }),
    javascriptCompiles: z.boolean().openapi({ description: 'The pattern compiles as a JavaScript RegExp with the i flag (as tools built on JavaScript would run it)' }),
    differences: z
      .array(
        z.object({
          construct: z.enum(DIALECT_DIFFERENCES),
          syntax: z.string().openapi({ description: 'The construct as written in a pattern' }),
          dotnet: z.string().openapi({ description: 'What .NET (the apps) reads' }),
          javascript: z.string().openapi({ description: 'What JavaScript reads' }),
        }),
      )
      .openapi({ description: 'Constructs of the pattern whose meaning differs between .NET and JavaScript, in order of first use' }),
    results: z.array(
      z.object({
        text: z.string(),
        dotnet: MatchOutcomeSchema.nullable().openapi({ description: 'As the apps match (.NET semantics); null when the pattern is not valid, or when the text holds a character outside the BMP (an emoji) that the answer of the pattern depends on (.NET reads it as two UTF-16 units; docs/evaluation.md, ".NET regular expressions")' }),
        javascript: MatchOutcomeSchema.nullable().openapi({ description: 'As a JavaScript RegExp with the i flag; null when it does not compile' }),
        differs: z.boolean().openapi({ description: 'Both answered (neither timed out) and differently' }),
      }),
    ),
    deadlineMs: z.number().int().openapi({ description: 'A single match running longer than this is stopped (timedOut)' }),
  })
  .openapi('RegexTestResponse');
