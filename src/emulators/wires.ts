/**
 * Wire types of the request bodies the emulator binds, restating the apps' resource classes (the
 * same properties as the OpenAPI component schemas; test/unit/emulators checks they agree).
 */
import type { AppFacts } from './apps/facts';
import { w, type Wire } from './binding';

type ObjectWire = Wire & { kind: 'object' };

function selectOptionWire(facts: AppFacts): ObjectWire {
  const props: Record<string, Wire> = { value: w.int, name: w.string, order: w.int, hint: w.string };
  if (facts.selectOptionDivider) props.dividerAfter = w.bool;
  return w.object('SelectOption', props);
}

export function fieldWire(facts: AppFacts): ObjectWire {
  return w.object('Field', {
    order: w.int,
    name: w.string,
    label: w.string,
    unit: w.string,
    helpText: w.string,
    helpTextWarning: w.string,
    helpLink: w.string,
    value: w.any,
    type: w.string,
    advanced: w.bool,
    selectOptions: w.list(selectOptionWire(facts)),
    selectOptionsProviderAction: w.string,
    section: w.string,
    hidden: w.string,
    privacy: w.enumOf('NzbDrone.Core.Annotations.PrivacyLevel', ['normal', 'password', 'apiKey', 'userName']),
    placeholder: w.string,
    isFloat: w.bool,
  });
}

/** Presets are bound loosely: the apps ignore them on write. */
export function specificationWire(facts: AppFacts): ObjectWire {
  return w.object('CustomFormatSpecificationSchema', {
    id: w.int,
    name: w.string,
    implementation: w.string,
    implementationName: w.string,
    infoLink: w.string,
    negate: w.bool,
    required: w.bool,
    fields: w.list(fieldWire(facts)),
    presets: w.any,
  });
}

export function customFormatWire(facts: AppFacts): ObjectWire {
  return w.object('CustomFormatResource', {
    id: w.int,
    name: w.string,
    includeCustomFormatWhenRenaming: w.nullable(w.bool),
    specifications: w.list(specificationWire(facts)),
  });
}

export const formatItemWire = w.object('ProfileFormatItemResource', {
  id: w.int,
  format: w.int,
  name: w.string,
  score: w.int,
});

const languageWire = w.object('NzbDrone.Core.Languages.Language', { id: w.int, name: w.string });

/** QualityProfileQualityItemResource (recursive: groups hold items); Items defaults to an empty list. */
export function qualityItemWire(facts: AppFacts): ObjectWire {
  const item = w.object('QualityProfileQualityItemResource', {
    id: w.int,
    name: w.string,
    quality: facts.qualityWire,
    allowed: w.bool,
  });
  item.props.items = w.list(item, 'empty');
  return item;
}

export function qualityProfileWire(facts: AppFacts): ObjectWire {
  const props: Record<string, Wire> = {
    id: w.int,
    name: w.string,
    upgradeAllowed: w.bool,
    cutoff: w.int,
    items: w.list(qualityItemWire(facts)),
    minFormatScore: w.int,
    cutoffFormatScore: w.int,
  };
  if (facts.hasMinUpgradeFormatScore) props.minUpgradeFormatScore = w.int;
  props.formatItems = w.list(formatItemWire);
  if (facts.profileLanguage) props.language = languageWire;
  return w.object('QualityProfileResource', props);
}

export function qualityDefinitionWire(facts: AppFacts): ObjectWire {
  return w.object('QualityDefinitionResource', {
    id: w.int,
    quality: facts.qualityWire,
    title: w.string,
    weight: w.int,
    minSize: w.nullable(w.double),
    maxSize: w.nullable(w.double),
    preferredSize: w.nullable(w.double),
  });
}

export const delayProfileWire = w.object('DelayProfileResource', {
  id: w.int,
  enableUsenet: w.bool,
  enableTorrent: w.bool,
  preferredProtocol: w.enumOf('NzbDrone.Core.Indexers.DownloadProtocol', ['unknown', 'usenet', 'torrent']),
  usenetDelay: w.int,
  torrentDelay: w.int,
  bypassIfHighestQuality: w.bool,
  bypassIfAboveCustomFormatScore: w.bool,
  minimumCustomFormatScore: w.int,
  order: w.int,
  tags: w.list(w.int),
});

export const tagWire = w.object('TagResource', { id: w.int, label: w.string });

const albumTypeWire = (clr: string) => w.object(clr, { id: w.int, name: w.string });

export const metadataProfileWire = w.object('MetadataProfileResource', {
  id: w.int,
  name: w.string,
  primaryAlbumTypes: w.list(w.object('ProfilePrimaryAlbumTypeItemResource', { id: w.int, albumType: albumTypeWire('NzbDrone.Core.Music.PrimaryAlbumType'), allowed: w.bool })),
  secondaryAlbumTypes: w.list(
    w.object('ProfileSecondaryAlbumTypeItemResource', { id: w.int, albumType: albumTypeWire('NzbDrone.Core.Music.SecondaryAlbumType'), allowed: w.bool }),
  ),
  releaseStatuses: w.list(w.object('ProfileReleaseStatusItemResource', { id: w.int, releaseStatus: albumTypeWire('NzbDrone.Core.Music.ReleaseStatus'), allowed: w.bool })),
});
