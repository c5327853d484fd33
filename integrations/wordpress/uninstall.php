<?php
// Deleting the plugin removes its settings (the relay keeps its own data).
defined( 'WP_UNINSTALL_PLUGIN' ) || exit;
foreach ( array( 'svc_elements_relay_url', 'svc_elements_jwt_secret', 'svc_elements_token_ttl' ) as $option ) {
	delete_option( $option );
}
