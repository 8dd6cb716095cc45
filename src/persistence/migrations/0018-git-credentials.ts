import { PortableMigration } from './portable-migration';

/**
 * A private repository's credential for PCD databases and reference-guide sources, sealed
 * (SecretBox) and kept apart from the URL, which no longer carries user information. URLs stored
 * with it are moved into this column at start-up (sealing needs the service's secret).
 */
export class Migration0018GitCredentials extends PortableMigration {
  override async up(): Promise<void> {
    for (const table of ['pcd_databases', 'ref_guide_sources']) {
      this.schema((s) =>
        s.alterTable(table, (t) => {
          t.text('git_credential_sealed').nullable();
        }),
      );
    }
  }
}
