-- @operation: export
-- @entity: batch
-- @name: Music additions
-- @opIds: 201, 202, 203, 204

-- --- BEGIN op 201 ( create lidarr_metadata_profile "Everything" )
insert into "lidarr_metadata_profiles" ("name", "description") values ('Everything', NULL);

insert into "lidarr_metadata_profile_primary_types" ("metadata_profile_name", "type_name", "allowed", "position") values
  ('Everything', 'Album', 1, 0), ('Everything', 'EP', 1, 1), ('Everything', 'Single', 1, 2), ('Everything', 'Broadcast', 1, 3), ('Everything', 'Other', 1, 4);

insert into "lidarr_metadata_profile_secondary_types" ("metadata_profile_name", "type_name", "allowed", "position") values
  ('Everything', 'Studio', 1, 0), ('Everything', 'Compilation', 1, 1), ('Everything', 'Soundtrack', 1, 2), ('Everything', 'Spokenword', 1, 3),
  ('Everything', 'Interview', 1, 4), ('Everything', 'Audiobook', 1, 5), ('Everything', 'Live', 1, 6), ('Everything', 'Remix', 1, 7),
  ('Everything', 'DJ-mix', 1, 8), ('Everything', 'Mixtape/Street', 1, 9), ('Everything', 'Demo', 1, 10), ('Everything', 'Audio drama', 1, 11);

insert into "lidarr_metadata_profile_release_statuses" ("metadata_profile_name", "status_name", "allowed", "position") values
  ('Everything', 'Official', 1, 0), ('Everything', 'Promotion', 1, 1), ('Everything', 'Bootleg', 0, 2), ('Everything', 'Pseudo-Release', 0, 3);
-- --- END op 201

-- --- BEGIN op 202 ( update lidarr_naming "Standard" )
update "lidarr_naming" set "colon_replacement_format" = 1 where "name" = 'Standard' and "colon_replacement_format" = 4;
-- --- END op 202

-- --- BEGIN op 203 ( update quality_profile "Music Lossless" )
update "quality_profiles" set "upgrade_until_score" = 300 where "name" = 'Music Lossless' and "upgrade_until_score" = 200;
-- --- END op 203

-- --- BEGIN op 204 ( update lidarr_quality_definitions "Music Sizes" )
insert into "lidarr_quality_definitions" ("name", "quality_name", "min_size", "max_size", "preferred_size") values ('Music Sizes', 'ALAC', 0, 1400, 1000);
-- --- END op 204
