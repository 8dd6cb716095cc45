/**
 * Listing of music-app (Lidarr) metadata profiles with counts only
 * (GET /pcd/{id}/music-app-metadata-profiles).
 */
import type Database from 'better-sqlite3';

export interface MetadataProfileSummary {
  id: number;
  name: string;
  /** '' when the profile has no description. */
  description: string;
  updated_at: string;
  primaryTypeCount: number;
  secondaryTypeCount: number;
  releaseStatusCount: number;
  primaryAllowedCount: number;
  secondaryAllowedCount: number;
  releaseStatusAllowedCount: number;
}

const counts = (table: string, prefix: string) => `
  LEFT JOIN (SELECT metadata_profile_name AS n, COUNT(*) AS total, SUM(allowed) AS allowed FROM ${table} GROUP BY metadata_profile_name) ${prefix}
    ON ${prefix}.n = p.name`;

/** Every metadata profile, sorted by name. */
export function listMusicAppMetadataProfiles(db: Database.Database): MetadataProfileSummary[] {
  return db
    .prepare(
      `SELECT p.id, p.name, COALESCE(p.description, '') AS description, p.updated_at,
              COALESCE(pt.total, 0) AS primaryTypeCount, COALESCE(st.total, 0) AS secondaryTypeCount, COALESCE(rs.total, 0) AS releaseStatusCount,
              COALESCE(pt.allowed, 0) AS primaryAllowedCount, COALESCE(st.allowed, 0) AS secondaryAllowedCount, COALESCE(rs.allowed, 0) AS releaseStatusAllowedCount
         FROM lidarr_metadata_profiles p
         ${counts('lidarr_metadata_profile_primary_types', 'pt')}
         ${counts('lidarr_metadata_profile_secondary_types', 'st')}
         ${counts('lidarr_metadata_profile_release_statuses', 'rs')}
        ORDER BY p.name`,
    )
    .all() as MetadataProfileSummary[];
}
