/**
 * delay_profile: download delays per protocol. Only the apps' global profile is synced, so PCD
 * delay profiles carry no tags.
 */
import { z } from 'zod';
import { asBool, asNumOrNull, asText, entityName, singleRowCodec } from './common';
import type { EntityModel } from './types';

export const delayProfileSchema = z
  .object({
    name: entityName,
    preferredProtocol: z.enum(['prefer_usenet', 'prefer_torrent', 'only_usenet', 'only_torrent']),
    usenetDelay: z.number().int().nonnegative().nullable(),
    torrentDelay: z.number().int().nonnegative().nullable(),
    bypassIfHighestQuality: z.boolean(),
    bypassIfAboveCustomFormatScore: z.boolean(),
    minimumCustomFormatScore: z.number().int().nullable(),
  })
  .strict();

export type DelayProfileData = z.infer<typeof delayProfileSchema>;

const TABLE = 'delay_profiles';
const codec = singleRowCodec<DelayProfileData>(TABLE, [
  asText('preferredProtocol', 'preferred_protocol'),
  asNumOrNull('usenetDelay', 'usenet_delay'),
  asNumOrNull('torrentDelay', 'torrent_delay'),
  asBool('bypassIfHighestQuality', 'bypass_if_highest_quality'),
  asBool('bypassIfAboveCustomFormatScore', 'bypass_if_above_custom_format_score'),
  asNumOrNull('minimumCustomFormatScore', 'minimum_custom_format_score'),
]);

export const delayProfileModel: EntityModel<DelayProfileData> = {
  type: 'delay_profile',
  family: null,
  rootTable: TABLE,
  rootless: false,
  tables: [{ table: TABLE, ownerColumn: 'name' }],
  schema: delayProfileSchema,
  diffOptions: {},
  ...codec,
  references: () => [],
  validate(d) {
    const errors: string[] = [];
    if ((d.preferredProtocol === 'only_torrent') !== (d.usenetDelay === null)) {
      errors.push(`usenetDelay: must be null exactly when preferredProtocol is only_torrent`);
    }
    if ((d.preferredProtocol === 'only_usenet') !== (d.torrentDelay === null)) {
      errors.push(`torrentDelay: must be null exactly when preferredProtocol is only_usenet`);
    }
    if (d.bypassIfAboveCustomFormatScore !== (d.minimumCustomFormatScore !== null)) {
      errors.push('minimumCustomFormatScore: required exactly when bypassIfAboveCustomFormatScore is true');
    }
    return errors;
  },
};
