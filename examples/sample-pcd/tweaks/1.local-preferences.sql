-- Local preferences layered on top of the base ops.

-- --- BEGIN op t1 ( update delay_profile "Standard" )
update "delay_profiles" set "torrent_delay" = 120 where "name" = 'Standard' and "torrent_delay" = 60;
-- --- END op t1

-- --- BEGIN op t2 ( update sonarr_media_settings "Standard" )
update "sonarr_media_settings" set "propers_repacks" = 'preferAndUpgrade' where "name" = 'Standard' and "propers_repacks" = 'doNotPrefer';
-- --- END op t2
