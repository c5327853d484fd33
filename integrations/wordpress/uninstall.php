<?php
// Deleting the plugin removes its settings (the relay keeps its own data), on every site of a network.
defined( 'WP_UNINSTALL_PLUGIN' ) || exit;

function svc_elements_delete_options() {
	foreach ( array( 'svc_elements_relay_url', 'svc_elements_jwt_secret', 'svc_elements_token_ttl' ) as $option ) {
		delete_option( $option );
	}
}

if ( is_multisite() ) {
	foreach ( get_sites( array( 'fields' => 'ids', 'number' => 0 ) ) as $site_id ) {
		switch_to_blog( $site_id );
		svc_elements_delete_options();
		restore_current_blog();
	}
} else {
	svc_elements_delete_options();
}
