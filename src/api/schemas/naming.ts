import { COLON_REPLACEMENTS, MULTI_EPISODE_STYLES } from '../../domain/naming';
import { movieNamingSchema } from '../../domain/pcd/entities/media';
import { int, text, z } from '../http/zod';

/** Request bounds of POST /naming/preview. */
export const NAMING_LIMITS = { formatLength: 500, customColonLength: 10 } as const;

const format = (what: string) =>
  text({ min: 1, max: NAMING_LIMITS.formatLength, trim: false }).openapi({ description: `${what}, 1 to ${NAMING_LIMITS.formatLength} characters` });
const common = {
  name: text({ min: 1, max: 100 }).optional().openapi({ description: 'The naming entity\'s name (ignored: the preview renders the formats)' }),
  rename: z.boolean().optional().openapi({ description: 'Ignored by the preview' }),
  replaceIllegalCharacters: z.boolean(),
};

export const NamingPreviewBodySchema = z
  .discriminatedUnion('arrType', [
    z
      .object({
        arrType: z.literal('movie_app'),
        naming: z
          .object({
            ...common,
            movieFormat: format('Standard movie format'),
            movieFolderFormat: format('Movie folder format'),
            colonReplacementFormat: movieNamingSchema.shape.colonReplacementFormat,
          })
          .strict(),
      })
      .strict(),
    z
      .object({
        arrType: z.literal('series_app'),
        naming: z
          .object({
            ...common,
            standardEpisodeFormat: format('Standard episode format'),
            dailyEpisodeFormat: format('Daily episode format'),
            animeEpisodeFormat: format('Anime episode format'),
            seriesFolderFormat: format('Series folder format'),
            seasonFolderFormat: format('Season folder format'),
            colonReplacementFormat: int(0, COLON_REPLACEMENTS.length - 1).openapi({ description: `0-5: ${COLON_REPLACEMENTS.join(', ')}` }),
            customColonReplacementFormat: text({ max: NAMING_LIMITS.customColonLength, trim: false })
              .nullable()
              .openapi({ description: `What a colon becomes with colonReplacementFormat 5 (custom), up to ${NAMING_LIMITS.customColonLength} characters` }),
            multiEpisodeStyle: int(0, MULTI_EPISODE_STYLES.length - 1).openapi({ description: `0-5: ${MULTI_EPISODE_STYLES.join(', ')}` }),
          })
          .strict(),
      })
      .strict(),
    z
      .object({
        arrType: z.literal('music_app'),
        naming: z
          .object({
            ...common,
            standardTrackFormat: format('Standard track format (may hold folders: /)'),
            multiDiscTrackFormat: format('Multi-disc track format (may hold folders: /)'),
            artistFolderFormat: format('Artist folder format'),
            colonReplacementFormat: int(0, 4).openapi({ description: `0-4: ${COLON_REPLACEMENTS.slice(0, 5).join(', ')}` }),
          })
          .strict(),
      })
      .strict(),
  ])
  .openapi('NamingPreviewRequest');

export const NamingPreviewResponseSchema = z
  .object({
    arrType: z.string(),
    previews: z
      .array(
        z.object({
          field: z.string().openapi({ description: 'The naming field rendered (movieFormat, standardEpisodeFormat, standardTrackFormat, ...)' }),
          sample: z.string().openapi({ description: 'What the sample is, e.g. "a file of episodes 1 to 3"' }),
          format: z.string(),
          name: z.string().openapi({ description: 'The rendered name (folder formats may hold /)' }),
          unknownTokens: z.array(z.string()).openapi({ description: 'Tokens of the format the app does not know, as written: they stay in the name as text' }),
        }),
      )
      .openapi({ description: 'Each format of the naming rendered for sample movies, episodes or tracks of the family' }),
    tokens: z
      .array(z.object({ group: z.string(), tokens: z.array(z.object({ token: z.string(), description: z.string().openapi({ description: "The token's value for the sample" }) })) }))
      .openapi({ description: "The family's tokens (token help), in groups" }),
    choices: z
      .object({
        colonReplacementFormat: z.array(z.object({ value: z.union([z.string(), z.number().int()]), label: z.string() })),
        multiEpisodeStyle: z.array(z.object({ value: z.number().int(), label: z.string() })).openapi({ description: 'Sonarr only; [] for the other families' }),
      })
      .openapi({ description: 'The values the family accepts for colonReplacementFormat and multiEpisodeStyle, with what each does' }),
  })
  .openapi('NamingPreview');
