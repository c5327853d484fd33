<?php
/**
 * Plugin Name:       svc-elements
 * Description:       Upload, play, curate and go live with the video service: the svc-elements tags, shortcodes, and a signed-in relay session for logged-in users.
 * Version:           0.1.0
 * Requires at least: 6.1
 * Requires PHP:      7.4
 * License:           MIT
 * License URI:       https://opensource.org/licenses/MIT
 * Text Domain:       svc-elements
 *
 * The site owner's settings (the relay's URL, the JWT secret) live here, in the page's head and in
 * the relay's configuration; a post's author gets the tags and shortcodes, whose every attribute is
 * safe (docs/security.md, "Roles: site owner and authors").
 */

defined( 'ABSPATH' ) || exit;

const SVC_ELEMENTS_VERSION = '0.1.0';

/** The four tags, each with the attributes an author may write, and who may see it. */
function svc_elements_tags() {
	return array(
		'svc-player'          => array(
			'capability' => null,
			'attributes' => array( 'kind', 'content-id', 'variant', 'loading', 'poster', 'title', 'aspect-ratio' ),
		),
		'svc-uploader'        => array(
			'capability' => 'upload_files',
			'attributes' => array( 'accept', 'multiple', 'capture', 'max-size', 'concurrency', 'still-processing-after' ),
		),
		'svc-playlist-editor' => array(
			'capability' => 'edit_posts',
			'attributes' => array( 'playlist-id' ),
		),
		'svc-channel-setup'   => array(
			'capability' => 'edit_posts',
			'attributes' => array( 'channel-title', 'description', 'region', 'rendition-count', 'novalidate' ),
		),
	);
}

/** Attributes of every tag (layout and language), as WordPress allows them on its own tags. */
const SVC_ELEMENTS_COMMON_ATTRIBUTES = array( 'class', 'id', 'lang', 'dir' );

/** The relay's base URL, without a trailing slash: the setting, else the site's own `/svc`. */
function svc_elements_relay_url() {
	$url = trim( (string) get_option( 'svc_elements_relay_url', '' ) );
	return untrailingslashit( '' === $url ? '/svc' : $url );
}

/** The JWT secret shared with the relay (SVC_AUTH_JWT_SECRET): the constant wins over the setting. */
function svc_elements_jwt_secret() {
	if ( defined( 'SVC_ELEMENTS_JWT_SECRET' ) ) {
		return (string) SVC_ELEMENTS_JWT_SECRET;
	}
	return (string) get_option( 'svc_elements_jwt_secret', '' );
}

/** Lifetime of the `svc_token` cookie, in seconds (at most the relay's SVC_AUTH_MAX_TTL_S). */
function svc_elements_token_ttl() {
	return max( 60, (int) apply_filters( 'svc_elements_token_ttl', (int) get_option( 'svc_elements_token_ttl', 3600 ) ) );
}

/* ---------------------------------------------------------------------------------------------
 * The script, as a module with a version, and the relay in the head (the site owner's).
 */

function svc_elements_script_url() {
	return svc_elements_relay_url() . '/elements.js';
}

/** Enqueues the elements' script; called where a page uses them (idempotent). */
function svc_elements_enqueue() {
	if ( function_exists( 'wp_enqueue_script_module' ) ) {
		// WordPress 6.5 and later: the script-modules API prints <script type="module">.
		wp_enqueue_script_module( 'svc-elements', svc_elements_script_url(), array(), SVC_ELEMENTS_VERSION );
	} else {
		wp_enqueue_script( 'svc-elements', svc_elements_script_url(), array(), SVC_ELEMENTS_VERSION, true );
	}
}

/** Before 6.5: the classic script tag of our handle becomes a module. */
add_filter(
	'script_loader_tag',
	function ( $tag, $handle ) {
		if ( 'svc-elements' !== $handle || false !== strpos( $tag, 'type="module"' ) ) {
			return $tag;
		}
		$tag = preg_replace( '/\stype=(["\'])[^"\']*\1/', '', $tag );
		return str_replace( '<script ', '<script type="module" ', $tag );
	},
	10,
	2
);

/** True when the content of the current query's posts uses a tag or a shortcode of the plugin. */
function svc_elements_page_uses_elements() {
	global $wp_query;
	foreach ( (array) ( $wp_query->posts ?? array() ) as $post ) {
		if ( $post instanceof WP_Post && ( false !== strpos( $post->post_content, '<svc-' ) || false !== strpos( $post->post_content, '[svc_' ) ) ) {
			return true;
		}
	}
	return false;
}

add_action(
	'wp_enqueue_scripts',
	function () {
		if ( svc_elements_page_uses_elements() ) {
			svc_elements_enqueue();
		}
	}
);

add_action(
	'wp_head',
	function () {
		// The relay the elements use and trust (a meta tag in a post's body is ignored by them).
		printf( "<meta name=\"svc-relay\" content=\"%s\">\n", esc_attr( svc_elements_relay_url() ) );
	},
	1
);

/* ---------------------------------------------------------------------------------------------
 * KSES: the four tags with exactly their safe attributes. Left out on purpose: `relay`, `code`,
 * `player-origin`, `iframe-origins` and `nonce` (the site owner's; the elements refuse them anyway
 * when they would widen trust) and every event handler.
 */
add_filter(
	'wp_kses_allowed_html',
	function ( $tags, $context ) {
		if ( 'post' !== $context ) {
			return $tags;
		}
		foreach ( svc_elements_tags() as $tag => $spec ) {
			$tags[ $tag ] = array_fill_keys( array_merge( $spec['attributes'], SVC_ELEMENTS_COMMON_ATTRIBUTES ), true );
		}
		return $tags;
	},
	10,
	2
);

/** Whether the current user may see `$tag` (the uploader needs upload_files, the editors edit_posts). */
function svc_elements_may_see( $tag ) {
	$tags = svc_elements_tags();
	$cap  = $tags[ $tag ]['capability'] ?? null;
	return null === $cap || current_user_can( $cap );
}

/**
 * `$content` without any `$tag` element: a closed one with its content, then every opening tag left
 * (an unclosed `<svc-uploader multiple>` makes an element too) and every closing tag, again until
 * nothing changes (removing `<svc-uploader>` from `<svc-<svc-uploader>uploader>` leaves a tag).
 */
function svc_elements_remove_tag( $content, $tag ) {
	$attributes = '(?:[^>"\']|"[^"]*"|\'[^\']*\')*';
	do {
		$before  = $content;
		$content = preg_replace( '#<' . $tag . '(?=[\s/>])' . $attributes . '>.*?</' . $tag . '\s*>#is', '', $content );
		$content = preg_replace( '#<' . $tag . '(?=[\s/>]|$)' . $attributes . '>?|</' . $tag . '(?=[\s/>]|$)[^>]*>?#i', '', $content );
	} while ( $content !== $before );
	return $content;
}

/** Removes from the content the elements the current user may not use (written as tags in a post). */
add_filter(
	'the_content',
	function ( $content ) {
		foreach ( array_keys( svc_elements_tags() ) as $tag ) {
			if ( ! svc_elements_may_see( $tag ) ) {
				$content = svc_elements_remove_tag( $content, $tag );
			}
		}
		return $content;
	},
	20
);

/* ---------------------------------------------------------------------------------------------
 * Shortcodes.
 */

/** `<tag attr="…">` from validated attributes (null and false leave an attribute out; true writes it bare). */
function svc_elements_tag( $tag, $attributes ) {
	$html = '<' . $tag;
	foreach ( $attributes as $name => $value ) {
		if ( null === $value || false === $value || '' === $value ) {
			continue;
		}
		$html .= true === $value ? ' ' . $name : sprintf( ' %s="%s"', $name, esc_attr( $value ) );
	}
	svc_elements_enqueue();
	return $html . '></' . $tag . '>';
}

/** `$value` when it is one of `$allowed`, else null. */
function svc_elements_one_of( $value, $allowed ) {
	return in_array( $value, $allowed, true ) ? $value : null;
}

/** A whole number from the shortcode, or null. */
function svc_elements_int( $value ) {
	return ( is_numeric( $value ) && (string) (int) $value === (string) $value ) ? (string) (int) $value : null;
}

/** A yes/no shortcode attribute (`multiple`, `multiple="1"`, `multiple="true"`). */
function svc_elements_flag( $atts, $name ) {
	if ( in_array( $name, (array) $atts, true ) ) {
		return true; // [svc_uploader multiple]
	}
	return isset( $atts[ $name ] ) && in_array( strtolower( (string) $atts[ $name ] ), array( '1', 'true', 'yes', 'on' ), true );
}

add_shortcode(
	'svc_player',
	function ( $atts ) {
		$raw  = (array) $atts;
		$atts = shortcode_atts(
			array(
				'id'           => '',
				'kind'         => 'vod',
				'variant'      => 'javascript',
				'loading'      => 'lazy',
				'poster'       => '',
				'title'        => '',
				'aspect_ratio' => '',
			),
			$atts,
			'svc_player'
		);
		return svc_elements_tag(
			'svc-player',
			array(
				'kind'         => svc_elements_one_of( $atts['kind'], array( 'vod', 'channel', 'playlist' ) ),
				'content-id'   => preg_match( '/^[\w-]{1,100}$/', $atts['id'] ) ? $atts['id'] : null,
				'variant'      => svc_elements_one_of( $atts['variant'], array( 'javascript', 'iframe' ) ),
				'loading'      => svc_elements_one_of( $atts['loading'], array( 'lazy', 'eager', 'click' ) ),
				'poster'       => '' === $atts['poster'] ? null : esc_url_raw( $atts['poster'] ),
				'title'        => $atts['title'],
				'aspect-ratio' => preg_match( '#^\d+(\.\d+)?\s*([/:]\s*\d+(\.\d+)?)?$#', $atts['aspect_ratio'] ) ? $atts['aspect_ratio'] : null,
			)
		);
	}
);

add_shortcode(
	'svc_uploader',
	function ( $atts ) {
		if ( ! svc_elements_may_see( 'svc-uploader' ) ) {
			return '';
		}
		$flags = (array) $atts;
		$atts  = shortcode_atts( array( 'accept' => '', 'max_size' => '', 'concurrency' => '' ), $atts, 'svc_uploader' );
		return svc_elements_tag(
			'svc-uploader',
			array(
				'multiple'    => svc_elements_flag( $flags, 'multiple' ),
				'accept'      => preg_match( '#^[\w.+/*,\s-]{1,200}$#', $atts['accept'] ) ? $atts['accept'] : null,
				'max-size'    => svc_elements_int( $atts['max_size'] ),
				'concurrency' => svc_elements_int( $atts['concurrency'] ),
			)
		);
	}
);

add_shortcode(
	'svc_playlist_editor',
	function ( $atts ) {
		if ( ! svc_elements_may_see( 'svc-playlist-editor' ) ) {
			return '';
		}
		$atts = shortcode_atts( array( 'id' => '' ), $atts, 'svc_playlist_editor' );
		return svc_elements_tag( 'svc-playlist-editor', array( 'playlist-id' => preg_match( '/^[\w-]{1,100}$/', $atts['id'] ) ? $atts['id'] : null ) );
	}
);

add_shortcode(
	'svc_channel_setup',
	function ( $atts ) {
		if ( ! svc_elements_may_see( 'svc-channel-setup' ) ) {
			return '';
		}
		$atts = shortcode_atts( array( 'region' => '', 'rendition_count' => '' ), $atts, 'svc_channel_setup' );
		return svc_elements_tag(
			'svc-channel-setup',
			array(
				'region'          => svc_elements_one_of( $atts['region'], array( 'north_america', 'asia_pacific', 'europe' ) ),
				'rendition-count' => svc_elements_int( $atts['rendition_count'] ),
			)
		);
	}
);

/* ---------------------------------------------------------------------------------------------
 * The relay session: an HS256 JWT in the `svc_token` cookie (HttpOnly, path of the relay), `sub` the
 * WordPress user's id. The relay (SVC_AUTH=jwt) reads it; cookie requests also need the elements'
 * X-Svc-Request header and an allowed Origin (the relay's CSRF rule). The relay authorises by
 * identity alone (any valid token may upload, and create playlists and channels), so the token is
 * issued only to users who may use an element that needs it: `upload_files` or `edit_posts`.
 */

/** Whether the current user gets a relay session (the uploader, the playlist editor or the channel setup is theirs). */
function svc_elements_may_sign_in() {
	return is_user_logged_in() && ( current_user_can( 'upload_files' ) || current_user_can( 'edit_posts' ) );
}

function svc_elements_base64url( $bytes ) {
	return rtrim( strtr( base64_encode( $bytes ), '+/', '-_' ), '=' );
}

/** An HS256 JWT of `$claims`. */
function svc_elements_jwt( $claims, $secret ) {
	$header  = svc_elements_base64url( wp_json_encode( array( 'alg' => 'HS256', 'typ' => 'JWT' ) ) );
	$payload = svc_elements_base64url( wp_json_encode( $claims ) );
	$signed  = $header . '.' . $payload;
	return $signed . '.' . svc_elements_base64url( hash_hmac( 'sha256', $signed, $secret, true ) );
}

/** The cookie's path: the relay's, when the relay is on this site's host (a cookie cannot reach another). */
function svc_elements_cookie_path() {
	$relay = wp_parse_url( svc_elements_relay_url() );
	if ( isset( $relay['host'] ) && wp_parse_url( home_url(), PHP_URL_HOST ) !== $relay['host'] ) {
		return null;
	}
	return ( $relay['path'] ?? '' ) === '' ? '/' : $relay['path'];
}

function svc_elements_set_cookie( $value, $expires ) {
	$path = svc_elements_cookie_path();
	if ( null === $path || headers_sent() ) {
		return;
	}
	setcookie(
		'svc_token',
		$value,
		array(
			'expires'  => $expires,
			'path'     => $path,
			// Behind a proxy that ends TLS, is_ssl() is false while the site is https.
			'secure'   => is_ssl() || 'https' === wp_parse_url( home_url(), PHP_URL_SCHEME ),
			'httponly' => true,
			'samesite' => 'Strict',
		)
	);
}

add_action(
	'template_redirect',
	function () {
		$secret = svc_elements_jwt_secret();
		if ( '' === $secret ) {
			return;
		}
		if ( ! svc_elements_may_sign_in() ) {
			if ( isset( $_COOKIE['svc_token'] ) && is_user_logged_in() ) {
				svc_elements_set_cookie( '', time() - 3600 ); // a session from before a change of role ends
			}
			return;
		}
		$now = time();
		$exp = $now + svc_elements_token_ttl();
		$sub = (string) apply_filters( 'svc_elements_token_subject', (string) get_current_user_id(), wp_get_current_user() );
		svc_elements_set_cookie( svc_elements_jwt( array( 'sub' => $sub, 'iat' => $now, 'exp' => $exp ), $secret ), $exp );
	}
);

add_action(
	'wp_logout',
	function () {
		svc_elements_set_cookie( '', time() - 3600 );
	}
);

/* ---------------------------------------------------------------------------------------------
 * Settings (Settings → Video elements), for administrators who may also write unfiltered HTML: the
 * relay's URL decides where the elements' code comes from, as much as a script tag would. On a
 * multisite network, a site's administrator has no `unfiltered_html` (only super admins do).
 */

/** Whether the current user may change the settings. */
function svc_elements_may_configure() {
	return current_user_can( 'manage_options' ) && current_user_can( 'unfiltered_html' );
}

/** options.php saves the settings only for such users. */
add_filter(
	'option_page_capability_svc_elements',
	function () {
		return svc_elements_may_configure() ? 'manage_options' : 'do_not_allow';
	}
);

/**
 * The relay URL setting: a path on this site (`/svc`) or an http(s) URL. Refused (the previous value
 * kept): backslashes, whitespace and control characters (browsers read `/\evil.example` as
 * `//evil.example`), protocol-relative forms, a query or a fragment.
 */
function svc_elements_sanitize_relay_url( $value ) {
	$value    = trim( (string) $value );
	$previous = (string) get_option( 'svc_elements_relay_url', '/svc' );
	if ( '' === $value ) {
		return '/svc';
	}
	$valid = ! preg_match( '#[\\\\\s\x00-\x1f\x7f?\#]#', $value ) && (
		preg_match( '#^/(?!/)#', $value ) ||
		( preg_match( '#^https?://[^/]#i', $value ) && esc_url_raw( $value, array( 'https', 'http' ) ) === $value )
	);
	if ( ! $valid ) {
		if ( function_exists( 'add_settings_error' ) ) {
			add_settings_error( 'svc_elements_relay_url', 'svc_elements_relay_url', __( 'The relay URL must be a path on this site (/svc) or an http(s) URL, without backslashes, a query or a fragment.', 'svc-elements' ) );
		}
		return $previous;
	}
	return untrailingslashit( $value );
}

/** The JWT secret setting: an empty field keeps the secret already set (it is never shown again). */
function svc_elements_sanitize_jwt_secret( $value ) {
	$value = trim( (string) $value );
	return '' === $value ? (string) get_option( 'svc_elements_jwt_secret', '' ) : $value;
}

add_action(
	'admin_init',
	function () {
		register_setting(
			'svc_elements',
			'svc_elements_relay_url',
			array(
				'type'              => 'string',
				'default'           => '/svc',
				'sanitize_callback' => 'svc_elements_sanitize_relay_url',
			)
		);
		register_setting( 'svc_elements', 'svc_elements_jwt_secret', array( 'type' => 'string', 'sanitize_callback' => 'svc_elements_sanitize_jwt_secret' ) );
		register_setting( 'svc_elements', 'svc_elements_token_ttl', array( 'type' => 'integer', 'default' => 3600, 'sanitize_callback' => 'absint' ) );
		add_settings_section( 'svc_elements_relay', __( 'Relay', 'svc-elements' ), '__return_false', 'svc-elements' );
		add_settings_field(
			'svc_elements_relay_url',
			__( 'Relay URL', 'svc-elements' ),
			function () {
				printf( '<input type="text" class="regular-text" name="svc_elements_relay_url" value="%s"> <p class="description">%s</p>', esc_attr( svc_elements_relay_url() ), esc_html__( 'Where the relay answers, e.g. /svc (proxied by this site) or https://video.example.com/svc. The elements trust only this relay.', 'svc-elements' ) );
			},
			'svc-elements',
			'svc_elements_relay'
		);
		add_settings_field(
			'svc_elements_jwt_secret',
			__( 'JWT secret', 'svc-elements' ),
			function () {
				if ( defined( 'SVC_ELEMENTS_JWT_SECRET' ) ) {
					echo esc_html__( 'Set by SVC_ELEMENTS_JWT_SECRET in wp-config.php.', 'svc-elements' );
					return;
				}
				// The secret is never sent back to the browser: only whether one is set.
				$set = '' !== (string) get_option( 'svc_elements_jwt_secret', '' );
				printf(
					'<input type="password" class="regular-text" autocomplete="new-password" name="svc_elements_jwt_secret" value="" placeholder="%s"> <p class="description">%s</p>',
					esc_attr( $set ? __( 'A secret is set (leave empty to keep it)', 'svc-elements' ) : __( 'No secret set', 'svc-elements' ) ),
					esc_html__( "The relay's SVC_AUTH_JWT_SECRET (SVC_AUTH=jwt).", 'svc-elements' )
				);
			},
			'svc-elements',
			'svc_elements_relay'
		);
		add_settings_field(
			'svc_elements_token_ttl',
			__( 'Session lifetime (seconds)', 'svc-elements' ),
			function () {
				printf( '<input type="number" min="60" name="svc_elements_token_ttl" value="%d">', (int) get_option( 'svc_elements_token_ttl', 3600 ) );
			},
			'svc-elements',
			'svc_elements_relay'
		);
	}
);

add_action(
	'admin_menu',
	function () {
		if ( ! svc_elements_may_configure() ) {
			return;
		}
		add_options_page(
			__( 'Video elements', 'svc-elements' ),
			__( 'Video elements', 'svc-elements' ),
			'manage_options',
			'svc-elements',
			function () {
				echo '<div class="wrap"><h1>' . esc_html__( 'Video elements', 'svc-elements' ) . '</h1><form method="post" action="options.php">';
				settings_fields( 'svc_elements' );
				do_settings_sections( 'svc-elements' );
				submit_button();
				echo '</form></div>';
			}
		);
	}
);
