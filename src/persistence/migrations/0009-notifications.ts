import { PortableMigration } from './portable-migration';

/**
 * Notification channels (URL and secret sealed like instance API keys), the events arrgo raised
 * (stable ids; coalesced drift kept with a pointer to the event it was folded into), and one
 * delivery per event and channel (unique: never two deliveries of one event to one channel).
 */
export class Migration0009Notifications extends PortableMigration {
  override async up(): Promise<void> {
    this.schema((s) =>
      s
        .createTable('notification_channels', (t) => {
          t.increments('id').primary();
          t.string('name', 100).notNullable().unique({ indexName: 'notification_channels_name_unique' });
          t.string('kind', 20).notNullable();
          t.text('url_sealed').notNullable();
          t.text('secret_sealed').nullable();
          t.json('events').notNullable();
          t.boolean('enabled').notNullable().defaultTo(true);
          t.datetime('created_at', { useTz: true }).notNullable();
          t.datetime('updated_at', { useTz: true }).notNullable();
        })
        .createTable('notification_events', (t) => {
          t.string('id', 120).primary();
          t.string('type', 40).notNullable();
          t.string('severity', 10).notNullable();
          t.string('subject_key', 60).notNullable();
          t.json('payload').notNullable();
          t.datetime('occurred_at', { useTz: true }).notNullable();
          t.string('coalesced_into', 120).nullable();
          t.integer('coalesced_count').notNullable().defaultTo(0);
          t.index(['subject_key', 'type', 'occurred_at'], 'notification_events_subject_index');
          t.index(['occurred_at', 'id'], 'notification_events_occurred_index');
        })
        .createTable('notification_deliveries', (t) => {
          t.string('id', 40).primary();
          t.string('event_id', 120).notNullable();
          t.string('event_type', 40).notNullable();
          t.integer('channel_id').nullable();
          t.string('channel_name', 100).notNullable();
          t.string('channel_kind', 20).notNullable();
          t.string('status', 20).notNullable();
          t.integer('attempts').notNullable().defaultTo(0);
          t.integer('last_status_code').nullable();
          t.string('last_error', 40).nullable();
          t.json('attempt_log').notNullable();
          t.string('workflow_id', 300).notNullable();
          t.datetime('created_at', { useTz: true }).notNullable();
          t.datetime('last_attempt_at', { useTz: true }).nullable();
          t.datetime('finished_at', { useTz: true }).nullable();
          t.unique(['event_id', 'channel_id'], { indexName: 'notification_deliveries_event_channel_unique' });
          t.index(['created_at', 'id'], 'notification_deliveries_created_index');
          t.index(['channel_id', 'created_at', 'id'], 'notification_deliveries_channel_index');
          t.index(['status', 'created_at', 'id'], 'notification_deliveries_status_index');
        }),
    );
  }
}
