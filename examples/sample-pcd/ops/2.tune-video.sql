-- @operation: export
-- @entity: batch
-- @name: Tune video formats and profiles
-- @opIds: 101, 102, 103, 104, 105, 106, 107, 108

-- --- BEGIN op 101 ( update regular_expression "x265" )
update "regular_expressions" set "pattern" = '[xh][ ._-]?265|\bHEVC\b|\bH\.?265\b' where "name" = 'x265' and "pattern" = '[xh][ ._-]?265|\bHEVC\b';
-- --- END op 101

-- --- BEGIN op 102 ( update regular_expression "SampleA" )
update "regular_expressions" set "name" = 'SampleA' where "name" = 'Sample Group A';
-- --- END op 102

-- --- BEGIN op 103 ( update custom_format "Preferred Groups" )
update "condition_patterns" set "regular_expression_name" = 'SampleA' where "custom_format_name" = 'Preferred Groups' and "condition_name" = 'Sample Group A' and "regular_expression_name" = 'Sample Group A';
-- --- END op 103

-- --- BEGIN op 104 ( update quality_profile "Movies 1080p" )
update "quality_profile_custom_formats" set "score" = 400 where "quality_profile_name" = 'Movies 1080p' and "custom_format_name" = 'Preferred Groups' and "arr_type" = 'radarr' and "score" = 300;
-- --- END op 104

-- --- BEGIN op 105 ( create custom_format "HDR" )
insert into "regular_expressions" ("name", "pattern", "regex101_id", "description") values ('HDR', '\bHDR(10)?\b', NULL, NULL);

insert into "custom_formats" ("name", "description", "include_in_rename") values ('HDR', 'Any HDR format', 1);

insert into "custom_format_conditions" ("custom_format_name", "name", "type", "arr_type", "negate", "required") values ('HDR', 'HDR', 'release_title', 'all', 0, 1);

insert into "condition_patterns" ("custom_format_name", "condition_name", "regular_expression_name") values ('HDR', 'HDR', 'HDR');
-- --- END op 105

-- --- BEGIN op 106 ( update quality_profile "Series 1080p" )
INSERT INTO quality_profile_custom_formats (quality_profile_name, custom_format_name, arr_type, score)
SELECT 'Series 1080p', 'HDR', 'all', 50
WHERE NOT EXISTS (
  SELECT 1 FROM quality_profile_custom_formats
  WHERE quality_profile_name = 'Series 1080p'
    AND custom_format_name = 'HDR'
    AND arr_type = 'all'
);
-- --- END op 106

-- --- BEGIN op 107 ( delete custom_format "Freeleech" )
delete from "custom_formats" where "name" = 'Freeleech';
-- --- END op 107

-- --- BEGIN op 108 ( update radarr_quality_definitions "Movie Sizes" )
update "radarr_quality_definitions" set "max_size" = 450, "preferred_size" = 350 where "name" = 'Movie Sizes' and "quality_name" = 'Bluray-1080p' and "max_size" = 400 and "preferred_size" = 300;
-- --- END op 108
