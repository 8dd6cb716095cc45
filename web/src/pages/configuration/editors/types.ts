import type { PortableType } from '../../../api/pcd';
import type { ArrType } from '../../../api/types';

/** What the entity page hands every editor: the entity as the resolved layer has it. */
export interface EditorProps {
  databaseId: number;
  portableType: PortableType;
  name: string;
  /** The resolved portable payload (what a sync would write). */
  entity: Record<string, unknown>;
  /** The app family of a per-app type (naming, media settings, quality definitions); null otherwise. */
  arrType: ArrType | null;
}
