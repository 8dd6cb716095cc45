import { PortableMigration } from './portable-migration';

/**
 * What the last connection test of an instance found. Instances registered before arrgo tested
 * connections at registration are never-verified until their next test.
 */
export class Migration0012InstanceVerification extends PortableMigration {
  override async up(): Promise<void> {
    this.schema((s) =>
      s.alterTable('instances', (t) => {
        t.string('verification_status', 20).notNullable().defaultTo('never-verified');
        t.datetime('verification_checked_at', { useTz: true }).nullable();
        t.string('verification_app_name', 100).nullable();
        t.string('verification_app_version', 50).nullable();
        t.string('verification_reason', 30).nullable();
      }),
    );
  }
}
