-- arrgo sample PCD: initial state (one op, no markers)

-- TAGS
INSERT INTO tags (name) VALUES ('Audio');
INSERT INTO tags (name) VALUES ('Codec');
INSERT INTO tags (name) VALUES ('Music');
INSERT INTO tags (name) VALUES ('Release Groups');
INSERT INTO tags (name) VALUES ('Unwanted');

-- REGULAR EXPRESSIONS
INSERT INTO regular_expressions (name, pattern, regex101_id, description) VALUES ('x265', '[xh][ ._-]?265|\bHEVC\b', NULL, 'HEVC encodes');
INSERT INTO regular_expressions (name, pattern, regex101_id, description) VALUES ('Atmos', '\bATMOS\b', NULL, NULL);
INSERT INTO regular_expressions (name, pattern, regex101_id, description) VALUES ('TrueHD', '\bTrue[ .-]?HD\b', NULL, NULL);
INSERT INTO regular_expressions (name, pattern, regex101_id, description) VALUES ('Cam Rip', '\b(CAM|HDCAM|TS|TELESYNC)\b', NULL, 'Recorded in a cinema');
INSERT INTO regular_expressions (name, pattern, regex101_id, description) VALUES ('Sample Group A', '^(SampleA)$', NULL, NULL);
INSERT INTO regular_expressions (name, pattern, regex101_id, description) VALUES ('Sample Group B', '^(SampleB)$', NULL, NULL);
INSERT INTO regular_expressions (name, pattern, regex101_id, description) VALUES ('Director''s Cut', '\bDirector''?s[ ._-]Cut\b', NULL, NULL);
INSERT INTO regular_expressions (name, pattern, regex101_id, description) VALUES ('FLAC', '\bFLAC\b', NULL, 'Free Lossless Audio Codec');
INSERT INTO regular_expressions (name, pattern, regex101_id, description) VALUES ('24bit', '\b24[ ._-]?bit\b', NULL, NULL);
INSERT INTO regular_expressions (name, pattern, regex101_id, description) VALUES ('Vinyl Rip', '\b(Vinyl|LP)[ ._-]?Rip\b', NULL, NULL);
INSERT INTO regular_expressions (name, pattern, regex101_id, description) VALUES ('Music Group', '^(SampleTunes)$', NULL, NULL);

INSERT INTO regular_expression_tags (regular_expression_name, tag_name) VALUES ('x265', 'Codec');
INSERT INTO regular_expression_tags (regular_expression_name, tag_name) VALUES ('Atmos', 'Audio');
INSERT INTO regular_expression_tags (regular_expression_name, tag_name) VALUES ('FLAC', 'Music');

-- CUSTOM FORMATS
INSERT INTO custom_formats (name, description, include_in_rename) VALUES ('x265 (HD)', 'HEVC below 2160p', 0);
INSERT INTO custom_formats (name, description, include_in_rename) VALUES ('Atmos', 'Dolby Atmos audio', 1);
INSERT INTO custom_formats (name, description, include_in_rename) VALUES ('Cam', 'Cinema recordings', 0);
INSERT INTO custom_formats (name, description, include_in_rename) VALUES ('Preferred Groups', NULL, 0);
INSERT INTO custom_formats (name, description, include_in_rename) VALUES ('Director''s Cut', NULL, 1);
INSERT INTO custom_formats (name, description, include_in_rename) VALUES ('Season Pack', 'Whole seasons', 0);
INSERT INTO custom_formats (name, description, include_in_rename) VALUES ('Not English', NULL, 0);
INSERT INTO custom_formats (name, description, include_in_rename) VALUES ('Old Movies', 'Released before 1970', 0);
INSERT INTO custom_formats (name, description, include_in_rename) VALUES ('Freeleech', NULL, 0);
INSERT INTO custom_formats (name, description, include_in_rename) VALUES ('Remux Tier', NULL, 0);
INSERT INTO custom_formats (name, description, include_in_rename) VALUES ('FLAC 24bit', 'High resolution lossless audio', 0);
INSERT INTO custom_formats (name, description, include_in_rename) VALUES ('Vinyl', NULL, 0);
INSERT INTO custom_formats (name, description, include_in_rename) VALUES ('Huge Album', 'Albums above 2 GB', 0);
INSERT INTO custom_formats (name, description, include_in_rename) VALUES ('Music Groups', NULL, 0);

INSERT INTO custom_format_tags (custom_format_name, tag_name) VALUES ('x265 (HD)', 'Codec');
INSERT INTO custom_format_tags (custom_format_name, tag_name) VALUES ('Atmos', 'Audio');
INSERT INTO custom_format_tags (custom_format_name, tag_name) VALUES ('Cam', 'Unwanted');
INSERT INTO custom_format_tags (custom_format_name, tag_name) VALUES ('Preferred Groups', 'Release Groups');
INSERT INTO custom_format_tags (custom_format_name, tag_name) VALUES ('FLAC 24bit', 'Music');
INSERT INTO custom_format_tags (custom_format_name, tag_name) VALUES ('Vinyl', 'Music');
INSERT INTO custom_format_tags (custom_format_name, tag_name) VALUES ('Music Groups', 'Music');
INSERT INTO custom_format_tags (custom_format_name, tag_name) VALUES ('Music Groups', 'Release Groups');

INSERT INTO custom_format_conditions (custom_format_name, name, type, arr_type, negate, required) VALUES ('x265 (HD)', 'x265', 'release_title', 'all', 0, 1);
INSERT INTO custom_format_conditions (custom_format_name, name, type, arr_type, negate, required) VALUES ('x265 (HD)', 'Not 2160p', 'resolution', 'all', 1, 1);
INSERT INTO custom_format_conditions (custom_format_name, name, type, arr_type, negate, required) VALUES ('Atmos', 'Atmos', 'release_title', 'all', 0, 1);
INSERT INTO custom_format_conditions (custom_format_name, name, type, arr_type, negate, required) VALUES ('Atmos', 'TrueHD', 'release_title', 'all', 0, 0);
INSERT INTO custom_format_conditions (custom_format_name, name, type, arr_type, negate, required) VALUES ('Cam', 'Cam Rip', 'release_title', 'all', 0, 0);
INSERT INTO custom_format_conditions (custom_format_name, name, type, arr_type, negate, required) VALUES ('Cam', 'Not Bluray', 'source', 'radarr', 1, 1);
INSERT INTO custom_format_conditions (custom_format_name, name, type, arr_type, negate, required) VALUES ('Preferred Groups', 'Sample Group A', 'release_group', 'all', 0, 0);
INSERT INTO custom_format_conditions (custom_format_name, name, type, arr_type, negate, required) VALUES ('Preferred Groups', 'Sample Group B', 'release_group', 'sonarr', 0, 0);
INSERT INTO custom_format_conditions (custom_format_name, name, type, arr_type, negate, required) VALUES ('Director''s Cut', 'Edition', 'edition', 'radarr', 0, 1);
INSERT INTO custom_format_conditions (custom_format_name, name, type, arr_type, negate, required) VALUES ('Season Pack', 'Season Pack', 'release_type', 'sonarr', 0, 1);
INSERT INTO custom_format_conditions (custom_format_name, name, type, arr_type, negate, required) VALUES ('Not English', 'Not English', 'language', 'all', 0, 1);
INSERT INTO custom_format_conditions (custom_format_name, name, type, arr_type, negate, required) VALUES ('Old Movies', 'Before 1970', 'year', 'radarr', 0, 1);
INSERT INTO custom_format_conditions (custom_format_name, name, type, arr_type, negate, required) VALUES ('Freeleech', 'Freeleech', 'indexer_flag', 'all', 0, 1);
INSERT INTO custom_format_conditions (custom_format_name, name, type, arr_type, negate, required) VALUES ('Remux Tier', 'Remux', 'quality_modifier', 'radarr', 0, 1);
INSERT INTO custom_format_conditions (custom_format_name, name, type, arr_type, negate, required) VALUES ('Remux Tier', 'Big', 'size', 'radarr', 0, 0);
INSERT INTO custom_format_conditions (custom_format_name, name, type, arr_type, negate, required) VALUES ('FLAC 24bit', 'FLAC', 'release_title', 'lidarr', 0, 1);
INSERT INTO custom_format_conditions (custom_format_name, name, type, arr_type, negate, required) VALUES ('FLAC 24bit', '24bit', 'release_title', 'lidarr', 0, 1);
INSERT INTO custom_format_conditions (custom_format_name, name, type, arr_type, negate, required) VALUES ('Vinyl', 'Vinyl Rip', 'release_title', 'lidarr', 0, 1);
INSERT INTO custom_format_conditions (custom_format_name, name, type, arr_type, negate, required) VALUES ('Huge Album', 'Above 2 GB', 'size', 'lidarr', 0, 1);
INSERT INTO custom_format_conditions (custom_format_name, name, type, arr_type, negate, required) VALUES ('Music Groups', 'SampleTunes', 'release_group', 'lidarr', 0, 0);

INSERT INTO condition_patterns (custom_format_name, condition_name, regular_expression_name) VALUES ('x265 (HD)', 'x265', 'x265');
INSERT INTO condition_patterns (custom_format_name, condition_name, regular_expression_name) VALUES ('Atmos', 'Atmos', 'Atmos');
INSERT INTO condition_patterns (custom_format_name, condition_name, regular_expression_name) VALUES ('Atmos', 'TrueHD', 'TrueHD');
INSERT INTO condition_patterns (custom_format_name, condition_name, regular_expression_name) VALUES ('Cam', 'Cam Rip', 'Cam Rip');
INSERT INTO condition_patterns (custom_format_name, condition_name, regular_expression_name) VALUES ('Preferred Groups', 'Sample Group A', 'Sample Group A');
INSERT INTO condition_patterns (custom_format_name, condition_name, regular_expression_name) VALUES ('Preferred Groups', 'Sample Group B', 'Sample Group B');
INSERT INTO condition_patterns (custom_format_name, condition_name, regular_expression_name) VALUES ('Director''s Cut', 'Edition', 'Director''s Cut');
INSERT INTO condition_patterns (custom_format_name, condition_name, regular_expression_name) VALUES ('FLAC 24bit', 'FLAC', 'FLAC');
INSERT INTO condition_patterns (custom_format_name, condition_name, regular_expression_name) VALUES ('FLAC 24bit', '24bit', '24bit');
INSERT INTO condition_patterns (custom_format_name, condition_name, regular_expression_name) VALUES ('Vinyl', 'Vinyl Rip', 'Vinyl Rip');
INSERT INTO condition_patterns (custom_format_name, condition_name, regular_expression_name) VALUES ('Music Groups', 'SampleTunes', 'Music Group');
INSERT INTO condition_resolutions (custom_format_name, condition_name, resolution) VALUES ('x265 (HD)', 'Not 2160p', '2160p');
INSERT INTO condition_sources (custom_format_name, condition_name, source) VALUES ('Cam', 'Not Bluray', 'bluray');
INSERT INTO condition_release_types (custom_format_name, condition_name, release_type) VALUES ('Season Pack', 'Season Pack', 'season_pack');
INSERT INTO condition_languages (custom_format_name, condition_name, language_name, except_language) VALUES ('Not English', 'Not English', 'English', 1);
INSERT INTO condition_years (custom_format_name, condition_name, min_year, max_year) VALUES ('Old Movies', 'Before 1970', NULL, 1969);
INSERT INTO condition_indexer_flags (custom_format_name, condition_name, flag) VALUES ('Freeleech', 'Freeleech', 'freeleech');
INSERT INTO condition_quality_modifiers (custom_format_name, condition_name, quality_modifier) VALUES ('Remux Tier', 'Remux', 'remux');
INSERT INTO condition_sizes (custom_format_name, condition_name, min_bytes, max_bytes) VALUES ('Remux Tier', 'Big', 20000000000, NULL);
INSERT INTO condition_sizes (custom_format_name, condition_name, min_bytes, max_bytes) VALUES ('Huge Album', 'Above 2 GB', 2000000000, NULL);

INSERT INTO custom_format_tests (custom_format_name, title, type, should_match, description) VALUES ('x265 (HD)', 'Some.Movie.2019.1080p.BluRay.x265-SampleA', 'movie', 1, NULL);
INSERT INTO custom_format_tests (custom_format_name, title, type, should_match, description) VALUES ('x265 (HD)', 'Some.Movie.2019.2160p.BluRay.x265-SampleA', 'movie', 0, 'UHD is excluded');
INSERT INTO custom_format_tests (custom_format_name, title, type, should_match, description) VALUES ('FLAC 24bit', 'Artist - Album (2020) [FLAC 24bit]', 'album', 1, NULL);

-- QUALITY PROFILES
INSERT INTO quality_profiles (name, description, upgrades_allowed, minimum_custom_format_score, upgrade_until_score, upgrade_score_increment) VALUES ('Movies 1080p', 'HD movies, archival DVD-R allowed', 1, 0, 1000, 1);
INSERT INTO quality_profiles (name, description, upgrades_allowed, minimum_custom_format_score, upgrade_until_score, upgrade_score_increment) VALUES ('Series 1080p', 'HD series from web and disc', 1, 0, 500, 10);
INSERT INTO quality_profiles (name, description, upgrades_allowed, minimum_custom_format_score, upgrade_until_score, upgrade_score_increment) VALUES ('Music Lossless', 'Lossless audio only', 1, 0, 200, 1);

INSERT INTO quality_profile_tags (quality_profile_name, tag_name) VALUES ('Music Lossless', 'Music');
INSERT INTO quality_profile_languages (quality_profile_name, language_name, type) VALUES ('Movies 1080p', 'Original', 'simple');

INSERT INTO quality_groups (quality_profile_name, name) VALUES ('Movies 1080p', 'WEB 1080p');
INSERT INTO quality_groups (quality_profile_name, name) VALUES ('Series 1080p', 'WEB 1080p');
INSERT INTO quality_groups (quality_profile_name, name) VALUES ('Music Lossless', 'Lossless');

INSERT INTO quality_group_members (quality_profile_name, quality_group_name, quality_name, position) VALUES ('Movies 1080p', 'WEB 1080p', 'WEBDL-1080p', 0);
INSERT INTO quality_group_members (quality_profile_name, quality_group_name, quality_name, position) VALUES ('Movies 1080p', 'WEB 1080p', 'WEBRip-1080p', 1);
INSERT INTO quality_group_members (quality_profile_name, quality_group_name, quality_name, position) VALUES ('Series 1080p', 'WEB 1080p', 'WEBDL-1080p', 0);
INSERT INTO quality_group_members (quality_profile_name, quality_group_name, quality_name, position) VALUES ('Series 1080p', 'WEB 1080p', 'WEBRip-1080p', 1);
INSERT INTO quality_group_members (quality_profile_name, quality_group_name, quality_name, position) VALUES ('Music Lossless', 'Lossless', 'FLAC', 0);
INSERT INTO quality_group_members (quality_profile_name, quality_group_name, quality_name, position) VALUES ('Music Lossless', 'Lossless', 'ALAC', 1);

INSERT INTO quality_profile_qualities (quality_profile_name, quality_name, quality_group_name, position, enabled, upgrade_until) VALUES ('Movies 1080p', 'Remux-1080p', NULL, 0, 0, 0);
INSERT INTO quality_profile_qualities (quality_profile_name, quality_name, quality_group_name, position, enabled, upgrade_until) VALUES ('Movies 1080p', 'Bluray-1080p', NULL, 1, 1, 1);
INSERT INTO quality_profile_qualities (quality_profile_name, quality_name, quality_group_name, position, enabled, upgrade_until) VALUES ('Movies 1080p', NULL, 'WEB 1080p', 2, 1, 0);
INSERT INTO quality_profile_qualities (quality_profile_name, quality_name, quality_group_name, position, enabled, upgrade_until) VALUES ('Movies 1080p', 'Bluray-720p', NULL, 3, 1, 0);
INSERT INTO quality_profile_qualities (quality_profile_name, quality_name, quality_group_name, position, enabled, upgrade_until) VALUES ('Movies 1080p', 'DVD-R', NULL, 4, 1, 0);
INSERT INTO quality_profile_qualities (quality_profile_name, quality_name, quality_group_name, position, enabled, upgrade_until) VALUES ('Movies 1080p', 'CAM', NULL, 5, 0, 0);
INSERT INTO quality_profile_qualities (quality_profile_name, quality_name, quality_group_name, position, enabled, upgrade_until) VALUES ('Series 1080p', 'Bluray-1080p', NULL, 0, 1, 0);
INSERT INTO quality_profile_qualities (quality_profile_name, quality_name, quality_group_name, position, enabled, upgrade_until) VALUES ('Series 1080p', NULL, 'WEB 1080p', 1, 1, 1);
INSERT INTO quality_profile_qualities (quality_profile_name, quality_name, quality_group_name, position, enabled, upgrade_until) VALUES ('Series 1080p', 'HDTV-1080p', NULL, 2, 1, 0);
INSERT INTO quality_profile_qualities (quality_profile_name, quality_name, quality_group_name, position, enabled, upgrade_until) VALUES ('Series 1080p', 'HDTV-720p', NULL, 3, 0, 0);
INSERT INTO quality_profile_qualities (quality_profile_name, quality_name, quality_group_name, position, enabled, upgrade_until) VALUES ('Music Lossless', 'FLAC 24bit', NULL, 0, 1, 0);
INSERT INTO quality_profile_qualities (quality_profile_name, quality_name, quality_group_name, position, enabled, upgrade_until) VALUES ('Music Lossless', NULL, 'Lossless', 1, 1, 1);
INSERT INTO quality_profile_qualities (quality_profile_name, quality_name, quality_group_name, position, enabled, upgrade_until) VALUES ('Music Lossless', 'MP3-320', NULL, 2, 0, 0);

INSERT INTO quality_profile_custom_formats (quality_profile_name, custom_format_name, arr_type, score) VALUES ('Movies 1080p', 'Atmos', 'all', 100);
INSERT INTO quality_profile_custom_formats (quality_profile_name, custom_format_name, arr_type, score) VALUES ('Movies 1080p', 'Cam', 'radarr', -10000);
INSERT INTO quality_profile_custom_formats (quality_profile_name, custom_format_name, arr_type, score) VALUES ('Movies 1080p', 'x265 (HD)', 'radarr', -500);
INSERT INTO quality_profile_custom_formats (quality_profile_name, custom_format_name, arr_type, score) VALUES ('Movies 1080p', 'Director''s Cut', 'radarr', 25);
INSERT INTO quality_profile_custom_formats (quality_profile_name, custom_format_name, arr_type, score) VALUES ('Movies 1080p', 'Preferred Groups', 'radarr', 300);
INSERT INTO quality_profile_custom_formats (quality_profile_name, custom_format_name, arr_type, score) VALUES ('Series 1080p', 'Preferred Groups', 'sonarr', 250);
INSERT INTO quality_profile_custom_formats (quality_profile_name, custom_format_name, arr_type, score) VALUES ('Series 1080p', 'Season Pack', 'sonarr', 15);
INSERT INTO quality_profile_custom_formats (quality_profile_name, custom_format_name, arr_type, score) VALUES ('Series 1080p', 'Not English', 'all', -1000);
INSERT INTO quality_profile_custom_formats (quality_profile_name, custom_format_name, arr_type, score) VALUES ('Series 1080p', 'x265 (HD)', 'sonarr', -500);
INSERT INTO quality_profile_custom_formats (quality_profile_name, custom_format_name, arr_type, score) VALUES ('Music Lossless', 'FLAC 24bit', 'lidarr', 100);
INSERT INTO quality_profile_custom_formats (quality_profile_name, custom_format_name, arr_type, score) VALUES ('Music Lossless', 'Vinyl', 'lidarr', -50);
INSERT INTO quality_profile_custom_formats (quality_profile_name, custom_format_name, arr_type, score) VALUES ('Music Lossless', 'Music Groups', 'lidarr', 20);

-- QUALITY DEFINITIONS
INSERT INTO radarr_quality_definitions (name, quality_name, min_size, max_size, preferred_size) VALUES ('Movie Sizes', 'Bluray-1080p', 50, 400, 300);
INSERT INTO radarr_quality_definitions (name, quality_name, min_size, max_size, preferred_size) VALUES ('Movie Sizes', 'WEBDL-1080p', 15, 400, 250);
INSERT INTO radarr_quality_definitions (name, quality_name, min_size, max_size, preferred_size) VALUES ('Movie Sizes', 'Remux-1080p', 100, 0, 390);
INSERT INTO sonarr_quality_definitions (name, quality_name, min_size, max_size, preferred_size) VALUES ('Series Sizes', 'WEBDL-1080p', 10, 300, 200);
INSERT INTO sonarr_quality_definitions (name, quality_name, min_size, max_size, preferred_size) VALUES ('Series Sizes', 'Bluray-1080p', 40, 300, 250);
INSERT INTO sonarr_quality_definitions (name, quality_name, min_size, max_size, preferred_size) VALUES ('Series Sizes', 'Remux-1080p', 80, 0, 290);
INSERT INTO lidarr_quality_definitions (name, quality_name, min_size, max_size, preferred_size) VALUES ('Music Sizes', 'FLAC', 0, 1400, 1000);
INSERT INTO lidarr_quality_definitions (name, quality_name, min_size, max_size, preferred_size) VALUES ('Music Sizes', 'FLAC 24bit', 0, 2900, 2000);
INSERT INTO lidarr_quality_definitions (name, quality_name, min_size, max_size, preferred_size) VALUES ('Music Sizes', 'MP3-320', 0, 350, 320);

-- NAMING
INSERT INTO radarr_naming (name, rename, movie_format, movie_folder_format, replace_illegal_characters, colon_replacement_format) VALUES ('Standard', 1, '{Movie CleanTitle} ({Release Year}) {edition-{Edition Tags}} [{Quality Full}]{-Release Group}', '{Movie CleanTitle} ({Release Year})', 1, 'spaceDash');
INSERT INTO sonarr_naming (name, rename, standard_episode_format, daily_episode_format, anime_episode_format, series_folder_format, season_folder_format, replace_illegal_characters, colon_replacement_format, custom_colon_replacement_format, multi_episode_style) VALUES ('Standard', 1, '{Series TitleYear} - S{season:00}E{episode:00} - {Episode CleanTitle} [{Quality Full}]{-Release Group}', '{Series TitleYear} - {Air-Date} - {Episode CleanTitle} [{Quality Full}]{-Release Group}', '{Series TitleYear} - S{season:00}E{episode:00} - {absolute:000} - {Episode CleanTitle} [{Quality Full}]{-Release Group}', '{Series TitleYear}', 'Season {season:00}', 1, 4, NULL, 5);
INSERT INTO lidarr_naming (name, rename, standard_track_format, multi_disc_track_format, artist_folder_format, replace_illegal_characters, colon_replacement_format) VALUES ('Standard', 1, '{Album Title} ({Release Year})/{Artist Name} - {Album Title} - {track:00} - {Track Title}', '{Album Title} ({Release Year})/{Medium Format} {medium:00}/{Artist Name} - {Album Title} - {track:00} - {Track Title}', '{Artist Name}', 1, 4);

-- MEDIA SETTINGS
INSERT INTO radarr_media_settings (name, propers_repacks, enable_media_info) VALUES ('Standard', 'doNotPrefer', 1);
INSERT INTO sonarr_media_settings (name, propers_repacks, enable_media_info) VALUES ('Standard', 'doNotPrefer', 1);
INSERT INTO lidarr_media_settings (name, propers_repacks, enable_media_info) VALUES ('Standard', 'preferAndUpgrade', 1);

-- DELAY PROFILE
INSERT INTO delay_profiles (name, preferred_protocol, usenet_delay, torrent_delay, bypass_if_highest_quality, bypass_if_above_custom_format_score, minimum_custom_format_score) VALUES ('Standard', 'prefer_usenet', 0, 60, 1, 0, NULL);

-- LIDARR METADATA PROFILE
INSERT INTO lidarr_metadata_profiles (name, description) VALUES ('Studio Albums', 'Official studio albums and EPs');
INSERT INTO lidarr_metadata_profile_primary_types (metadata_profile_name, type_name, allowed, position) VALUES ('Studio Albums', 'Album', 1, 0);
INSERT INTO lidarr_metadata_profile_primary_types (metadata_profile_name, type_name, allowed, position) VALUES ('Studio Albums', 'EP', 1, 1);
INSERT INTO lidarr_metadata_profile_primary_types (metadata_profile_name, type_name, allowed, position) VALUES ('Studio Albums', 'Single', 0, 2);
INSERT INTO lidarr_metadata_profile_primary_types (metadata_profile_name, type_name, allowed, position) VALUES ('Studio Albums', 'Broadcast', 0, 3);
INSERT INTO lidarr_metadata_profile_primary_types (metadata_profile_name, type_name, allowed, position) VALUES ('Studio Albums', 'Other', 0, 4);
INSERT INTO lidarr_metadata_profile_secondary_types (metadata_profile_name, type_name, allowed, position) VALUES ('Studio Albums', 'Studio', 1, 0);
INSERT INTO lidarr_metadata_profile_secondary_types (metadata_profile_name, type_name, allowed, position) VALUES ('Studio Albums', 'Compilation', 0, 1);
INSERT INTO lidarr_metadata_profile_secondary_types (metadata_profile_name, type_name, allowed, position) VALUES ('Studio Albums', 'Soundtrack', 0, 2);
INSERT INTO lidarr_metadata_profile_secondary_types (metadata_profile_name, type_name, allowed, position) VALUES ('Studio Albums', 'Spokenword', 0, 3);
INSERT INTO lidarr_metadata_profile_secondary_types (metadata_profile_name, type_name, allowed, position) VALUES ('Studio Albums', 'Interview', 0, 4);
INSERT INTO lidarr_metadata_profile_secondary_types (metadata_profile_name, type_name, allowed, position) VALUES ('Studio Albums', 'Audiobook', 0, 5);
INSERT INTO lidarr_metadata_profile_secondary_types (metadata_profile_name, type_name, allowed, position) VALUES ('Studio Albums', 'Live', 0, 6);
INSERT INTO lidarr_metadata_profile_secondary_types (metadata_profile_name, type_name, allowed, position) VALUES ('Studio Albums', 'Remix', 0, 7);
INSERT INTO lidarr_metadata_profile_secondary_types (metadata_profile_name, type_name, allowed, position) VALUES ('Studio Albums', 'DJ-mix', 0, 8);
INSERT INTO lidarr_metadata_profile_secondary_types (metadata_profile_name, type_name, allowed, position) VALUES ('Studio Albums', 'Mixtape/Street', 0, 9);
INSERT INTO lidarr_metadata_profile_secondary_types (metadata_profile_name, type_name, allowed, position) VALUES ('Studio Albums', 'Demo', 0, 10);
INSERT INTO lidarr_metadata_profile_secondary_types (metadata_profile_name, type_name, allowed, position) VALUES ('Studio Albums', 'Audio drama', 0, 11);
INSERT INTO lidarr_metadata_profile_release_statuses (metadata_profile_name, status_name, allowed, position) VALUES ('Studio Albums', 'Official', 1, 0);
INSERT INTO lidarr_metadata_profile_release_statuses (metadata_profile_name, status_name, allowed, position) VALUES ('Studio Albums', 'Promotion', 0, 1);
INSERT INTO lidarr_metadata_profile_release_statuses (metadata_profile_name, status_name, allowed, position) VALUES ('Studio Albums', 'Bootleg', 0, 2);
INSERT INTO lidarr_metadata_profile_release_statuses (metadata_profile_name, status_name, allowed, position) VALUES ('Studio Albums', 'Pseudo-Release', 0, 3);
