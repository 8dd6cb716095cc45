import { Select, Switch } from '@mantine/core';
import { Disclosure } from '../../../components/Disclosure';
import { EditorFrame } from '../../../components/EditorFrame';
import { useEntityDraft } from './draft';
import { fieldChanges } from './field-edits';
import type { EditorProps } from './types';

interface MediaSettings {
  name: string;
  propersRepacks: 'doNotPrefer' | 'preferAndUpgrade' | 'doNotUpgradeAutomatically';
  enableMediaInfo: boolean;
}

// The apps' own words for each choice (Settings > Media Management > File Management).
const PROPERS_REPACKS = [
  { value: 'preferAndUpgrade', label: 'Prefer and upgrade' },
  { value: 'doNotUpgradeAutomatically', label: 'Do not upgrade automatically' },
  { value: 'doNotPrefer', label: 'Do not prefer' },
];

/** Media settings of one app family: propers and repacks, and media info analysis (advanced). */
export function MediaSettingsEditor(props: EditorProps) {
  const { draft, setDraft, frame } = useEntityDraft<MediaSettings>(props, (original, next) => fieldChanges(original, next, ['propersRepacks', 'enableMediaInfo']));
  return (
    <EditorFrame {...frame}>
      <Disclosure
        sectionKey="configuration:media-settings:files"
        title="File management"
        description="How the app treats propers and repacks; advanced: media info analysis."
        advanced={
          <Switch
            label="Analyse video files (media info)"
            description="Reads resolution, codecs and languages from the files themselves."
            checked={draft.enableMediaInfo}
            onChange={(event) => setDraft({ ...draft, enableMediaInfo: event.currentTarget.checked })}
          />
        }
      >
        <Select
          label="Propers and repacks"
          description="Whether a proper or repack of the same quality replaces the file."
          data={PROPERS_REPACKS}
          value={draft.propersRepacks}
          allowDeselect={false}
          onChange={(value) => value && setDraft({ ...draft, propersRepacks: value as MediaSettings['propersRepacks'] })}
          maw={360}
        />
      </Disclosure>
    </EditorFrame>
  );
}
