// End to end in WordPress as Debian packages it (Apache 2.4 with mod_php under prefork, MariaDB,
// WordPress 6.1 and its twentytwentythree theme), with the plugin of integrations/wordpress/ and the
// relay behind Apache's mod_proxy_http under /svc, configured as docs/deploying.md says. The test
// starts and removes its own WordPress: a MariaDB data directory and socket of its own, an Apache
// configuration on a free loopback port, WordPress installed through PHP (wp_install). Then in
// Chromium: an author's post with shortcodes plays a VOD and uploads a file to "Ready to play"
// (events streamed through Apache); the author's hostile attributes are stripped on save, an
// administrator's (unfiltered) hostile attributes are refused by the elements, and the attacker's
// server sees no request; a visitor and a signed-in subscriber see the player and no uploader (an
// unclosed tag included) and get no svc_token; the relay URL setting refuses backslashes and
// protocol-relative forms; the settings page never sends the JWT secret back. Apache runs the block of
// docs/deploying.md itself (checked with apache2 -t first). Skipped, with one line, where the
// packages are missing (`.ci/run` installs them).
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { accessSync, chmodSync, constants, existsSync, mkdirSync, readdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { buildBundleIfStale, bundlePath } from '../../scripts/build.js';
import { makeVideo } from '../support/media.js';
import { startStack, uploadVod, type Stack } from '../support/servers.js';
import { eventually, groupAlive, launchBrowser, record, waitForEvent } from './support.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const WORDPRESS = '/usr/share/wordpress';
const MODULES = '/usr/lib/apache2/modules';

/** Apache's PHP module (libphp8.2.so on Debian 12), if installed. */
function phpApacheModule(): string | undefined {
  const name = existsSync(MODULES) ? readdirSync(MODULES).find((file) => /^libphp[\d.]*\.so$/.test(file)) : undefined;
  return name && `${MODULES}/${name}`;
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** What is missing of `apt install wordpress apache2 libapache2-mod-php mariadb-server php-mysql`. */
function missingPackages(): string[] {
  const has = (path: string) => existsSync(path);
  const phpModule = () => phpApacheModule() !== undefined;
  const mysqli = () => has('/usr/lib/php') && readdirSync('/usr/lib/php').some((dir) => has(`/usr/lib/php/${dir}/mysqli.so`));
  return [
    ['wordpress', has(`${WORDPRESS}/wp-settings.php`)],
    ['apache2', has('/usr/sbin/apache2') && has(`${MODULES}/mod_proxy_http.so`)],
    ['libapache2-mod-php', phpModule() && has('/usr/bin/php')],
    ['mariadb-server', has('/usr/sbin/mariadbd') && has('/usr/bin/mariadb-install-db')],
    ['php-mysql', mysqli()],
    // Debian's wp-config.php reads /etc/wordpress/config-<name>.php: the test writes (and removes) one.
    ['write access to /etc/wordpress (run as root)', writable('/etc/wordpress')],
  ]
    .filter(([, present]) => !present)
    .map(([name]) => name as string);
}

const missing = missingPackages();
const PUBLIC_LIMIT = 150;
const SKIP_LINE = `WordPress end-to-end test skipped: ${missing.join(', ')} not installed (apt-get install wordpress apache2 libapache2-mod-php mariadb-server php-mysql; .ci/run does).`;

/** A free loopback port (listen on 0, then close). */
async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs a command to its end; throws with its output when it fails. */
function run(command: string, args: string[], options: { input?: string; env?: NodeJS.ProcessEnv } = {}): string {
  const result = spawnSync(command, args, { encoding: 'utf8', input: options.input, env: options.env ?? process.env, timeout: 120_000 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** An HS256 JWT, as the plugin makes them. */
function jwt(claims: Record<string, unknown>, secret: string): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const signed = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
  return `${signed}.${createHmac('sha256', secret).update(signed).digest('base64url')}`;
}

/** Stops a detached process group: SIGTERM, then SIGKILL if it is still there after 10 s. */
async function stopGroup(child: ChildProcess | undefined): Promise<void> {
  const pid = child?.pid;
  if (!pid || !groupAlive(pid)) return;
  process.kill(-pid, 'SIGTERM');
  if (!(await eventually(() => !groupAlive(pid), 10_000))) process.kill(-pid, 'SIGKILL');
  await eventually(() => !groupAlive(pid), 5_000);
}

/** The attacker: a relay and a player of its own on another origin, recording every request. */
async function startAttacker(): Promise<{ server: Server; origin: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const origin = `http://${req.headers.host}`;
    const headers = { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'application/json' };
    if (req.url === '/svc/config') return res.writeHead(200, headers).end(JSON.stringify({ player_origin: origin, iframe_origins: [origin] }));
    const embed = /^\/svc\/embed\/vod\/([\w-]+)\/javascript$/.exec(req.url ?? '');
    if (embed) return res.writeHead(200, headers).end(JSON.stringify({ code: `<script id="${embed[1]}" src="${origin}/js/player.js?contentId=${embed[1]}"></script>` }));
    res.writeHead(200, { ...headers, 'Content-Type': 'text/javascript' }).end("window.__pwned = 'attacker';");
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`, hits };
}

/**
 * The relay's part of the Apache configuration, exactly as docs/deploying.md documents it: the lines
 * inside `<VirtualHost>` of the block between its `apache-vhost` markers, but for the `ServerName`
 * and the relay's port (the documented 8787 becomes `relayPort`). So the docs cannot drift from what
 * is tested.
 */
function documentedRelayConfig(relayPort: number): string {
  const doc = readFileSync(join(root, 'docs/deploying.md'), 'utf8');
  const block = /<!-- apache-vhost: begin.*?-->\s*```apache\n([\s\S]*?)```\s*<!-- apache-vhost: end -->/.exec(doc)?.[1];
  assert.ok(block, 'docs/deploying.md has the Apache block between its apache-vhost markers');
  const inside = /<VirtualHost[^>]*>\n([\s\S]*?)<\/VirtualHost>/.exec(block)?.[1];
  assert.ok(inside, 'the documented block is a <VirtualHost>');
  assert.ok(inside.includes('127.0.0.1:8787'), 'the documented relay address');
  return inside
    .split('\n')
    .filter((line) => !/^\s*ServerName\b/.test(line))
    .join('\n')
    .replaceAll('127.0.0.1:8787', `127.0.0.1:${relayPort}`);
}

/** The Apache configuration: WordPress with mod_php, and the relay under /svc as docs/deploying.md shows it. */
function apacheConfig(work: string, port: number, relayPort: number, configName: string): string {
  const user = process.getuid?.() === 0 ? 'User www-data\nGroup www-data' : '';
  const modules = ['mpm_prefork', 'authz_core', 'dir', 'mime', 'alias', 'env', 'headers', 'setenvif', 'filter', 'deflate', 'proxy', 'proxy_http'];
  const php = phpApacheModule()!;
  return `ServerRoot ${work}
ServerName 127.0.0.1
Listen 127.0.0.1:${port}
PidFile ${work}/apache.pid
DefaultRuntimeDir ${work}
Mutex file:${work} default
ErrorLog ${work}/apache-error.log
LogLevel warn
${user}
${modules.map((name) => `LoadModule ${name}_module ${MODULES}/mod_${name}.so`).join('\n')}
LoadModule php_module ${php}
TypesConfig /etc/mime.types
StartServers 2
MinSpareServers 2
MaxSpareServers 6
MaxRequestWorkers 30

DocumentRoot ${WORDPRESS}
DirectoryIndex index.php
<Directory />
  AllowOverride None
  Require all denied
</Directory>
<Directory ${WORDPRESS}>
  Options FollowSymLinks
  Require all granted
</Directory>
Alias /wp-content/ ${work}/wp-content/
<Directory ${work}/wp-content>
  Options FollowSymLinks
  Require all granted
</Directory>
<Directory /usr/share/wordpress/wp-content>
  Require all granted
</Directory>
<FilesMatch "\\.php$">
  SetHandler application/x-httpd-php
</FilesMatch>
SetEnv WORDPRESS_CONFIG ${configName}
AddOutputFilterByType DEFLATE text/html text/css text/javascript application/javascript application/json text/event-stream

# The relay under /svc (docs/deploying.md, "Apache in front of the relay")
${documentedRelayConfig(relayPort)}
`;
}

/** The PHP that installs WordPress, its users, the plugin and the posts; prints JSON. */
function installScript(configName: string, host: string, posts: { author: string; admin: string }, secret: string): string {
  const php = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  return `<?php
$_SERVER['HTTP_HOST'] = ${php(host)};
$_SERVER['WORDPRESS_CONFIG'] = ${php(configName)};
define('WP_INSTALLING', true);
require ${php(`${WORDPRESS}/wp-load.php`)};
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
require_once ABSPATH . 'wp-admin/includes/plugin.php';
$installed = wp_install('svc-elements in WordPress', 'admin', 'admin@example.test', true, '', 'admin-pass');
$admin = $installed['user_id'];
$author = wp_insert_user(['user_login' => 'author', 'user_pass' => 'author-pass', 'user_email' => 'author@example.test', 'role' => 'author']);
if (is_wp_error($author)) { fwrite(STDERR, $author->get_error_message()); exit(1); }
$subscriber = wp_insert_user(['user_login' => 'subscriber', 'user_pass' => 'subscriber-pass', 'user_email' => 'subscriber@example.test', 'role' => 'subscriber']);
if (is_wp_error($subscriber)) { fwrite(STDERR, $subscriber->get_error_message()); exit(1); }
$activated = activate_plugin('svc-elements/svc-elements.php');
if (is_wp_error($activated)) { fwrite(STDERR, $activated->get_error_message()); exit(1); }
update_option('svc_elements_relay_url', '/svc');
update_option('svc_elements_jwt_secret', ${php(secret)});
update_option('svc_elements_token_ttl', 600);
function post_as($user, $title, $content) {
  wp_set_current_user($user);
  kses_init(); // the filters of the user who saves, as the editor applies them
  $id = wp_insert_post(['post_title' => $title, 'post_content' => wp_slash($content), 'post_status' => 'publish', 'post_author' => $user], true);
  if (is_wp_error($id)) { fwrite(STDERR, $id->get_error_message()); exit(1); }
  return $id;
}
$author_post = post_as($author, 'An author writes', ${php(posts.author)});
$admin_post = post_as($admin, 'An administrator pastes', ${php(posts.admin)});
echo json_encode([
  'author_post' => get_permalink($author_post),
  'admin_post' => get_permalink($admin_post),
  'author_id' => $author,
  'author_content' => get_post($author_post)->post_content,
  'unfiltered' => user_can($author, 'unfiltered_html'),
  'relay_urls' => array_map(function ($value) { return [$value, function_exists('svc_elements_sanitize_relay_url') ? svc_elements_sanitize_relay_url($value) : null]; }, json_decode(${php(JSON.stringify(RELAY_URLS.map(([value]) => value)))})),
]);
`;
}

interface Installed {
  author_post: string;
  admin_post: string;
  author_id: number;
  author_content: string;
  unfiltered: boolean;
  /** Each of RELAY_URLS with what the relay URL setting keeps of it. */
  relay_urls: [string, string][];
}

/** Relay URL settings: the previous value (/svc) is kept for every one that is not a plain path or http(s) URL. */
const RELAY_URLS: [string, string][] = [
  ['/relay/', '/relay'],
  ['https://video.example/svc', 'https://video.example/svc'],
  ['/\\evil.example/svc', '/svc'],
  ['//evil.example/svc', '/svc'],
  ['\\\\evil.example/svc', '/svc'],
  ['https:/\\evil.example/svc', '/svc'],
  ['/svc?x=1', '/svc'],
  ['javascript:alert(1)', '/svc'],
];

describe('WordPress (Debian packages) with the plugin, the relay behind Apache', { skip: missing.length > 0 && SKIP_LINE }, () => {
  const work = missing.length ? '' : mkdtempSync(join(tmpdir(), 'svc-wp-'));
  const configName = `svc-e2e-${randomBytes(6).toString('hex')}`;
  const configFile = `/etc/wordpress/config-${configName}.php`;
  const secret = randomBytes(32).toString('hex');
  let stack: Stack | undefined;
  let mariadb: ChildProcess | undefined;
  let apache: ChildProcess | undefined;
  let attacker: Awaited<ReturnType<typeof startAttacker>> | undefined;
  let browser: Browser | undefined;
  let origin = '';
  let vodId = '';
  let site: Installed;

  // Whatever happens, the processes and files this test made go away.
  const removeAll = () => {
    for (const child of [apache, mariadb]) if (child?.pid && groupAlive(child.pid)) process.kill(-child.pid, 'SIGKILL');
    rmSync(configFile, { force: true });
  };
  process.once('exit', removeAll);

  before(async () => {
    chmodSync(work, 0o755);
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    attacker = await startAttacker();

    // The script-tag build the relay serves under /svc/ (its loader at /svc/elements.js).
    await buildBundleIfStale();
    stack = await startStack({
      processingMs: 400,
      relay: {
        auth: 'jwt',
        jwtSecret: secret,
        allowedOrigins: [origin],
        elementsBundlePath: bundlePath,
        trustProxy: true,
        logger: () => {},
        // Per address, public routes: enough for the pages below, few enough to reach in the X-Forwarded-For test.
        rateLimits: { create: { limit: 1000, windowMs: 60_000 }, read: { limit: 10_000, windowMs: 60_000 }, public: { limit: PUBLIC_LIMIT, windowMs: 60_000 } },
      },
    });
    const relayPort = Number(new URL(stack.relayUrl).port);
    const seeded = await uploadVod(stack.relayUrl, makeVideo({ seconds: 2, name: 'wordpress-seed.mp4' }), {
      Authorization: `Bearer ${jwt({ sub: 'seed', exp: Math.floor(Date.now() / 1000) + 600 }, secret)}`,
    });
    vodId = seeded.vod_id;

    // MariaDB: its own data directory and socket, no network.
    const data = join(work, 'mariadb');
    const socket = join(work, 'mariadb.sock');
    run('mariadb-install-db', ['--no-defaults', `--datadir=${data}`, '--user=root', '--auth-root-authentication-method=socket', '--skip-test-db']);
    mariadb = spawn(
      '/usr/sbin/mariadbd',
      ['--no-defaults', `--datadir=${data}`, `--socket=${socket}`, '--skip-networking', '--user=root', `--pid-file=${work}/mariadb.pid`, `--log-error=${work}/mariadb.err`],
      { detached: true, stdio: 'ignore' },
    );
    const sql = (statement: string) => run('mariadb', ['--no-defaults', `--socket=${socket}`, '-uroot', '-e', statement]);
    const up = await eventually(() => existsSync(socket) && spawnSync('mariadb', ['--no-defaults', `--socket=${socket}`, '-uroot', '-e', 'SELECT 1']).status === 0, 60_000);
    assert.ok(up, `MariaDB did not start:\n${existsSync(`${work}/mariadb.err`) ? readFileSync(`${work}/mariadb.err`, 'utf8') : ''}`);
    sql("CREATE DATABASE wp; CREATE USER 'wp'@'localhost' IDENTIFIED BY 'wp-pass'; GRANT ALL ON wp.* TO 'wp'@'localhost';");

    // WordPress: Debian's /etc/wordpress/config-<name>.php, chosen by SetEnv WORDPRESS_CONFIG.
    const content = join(work, 'wp-content');
    mkdirSync(join(content, 'plugins'), { recursive: true });
    mkdirSync(join(content, 'uploads'), { recursive: true });
    symlinkSync(join(root, 'integrations/wordpress'), join(content, 'plugins/svc-elements'));
    symlinkSync(`${WORDPRESS}/wp-content/themes`, join(content, 'themes'));
    const salts = ['AUTH_KEY', 'SECURE_AUTH_KEY', 'LOGGED_IN_KEY', 'NONCE_KEY', 'AUTH_SALT', 'SECURE_AUTH_SALT', 'LOGGED_IN_SALT', 'NONCE_SALT']
      .map((name) => `define('${name}', '${randomBytes(24).toString('hex')}');`)
      .join('\n');
    writeFileSync(
      configFile,
      `<?php
define('DB_NAME', 'wp');
define('DB_USER', 'wp');
define('DB_PASSWORD', 'wp-pass');
define('DB_HOST', 'localhost:${socket}');
define('WP_CONTENT_DIR', '${content}');
define('WP_HOME', '${origin}');
define('WP_SITEURL', '${origin}');
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('DISABLE_WP_CRON', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
${salts}
`,
      { mode: 0o644 },
    );
    const hostile = `${attacker.origin}`;
    const hostileCode = `&lt;script id=&quot;${vodId}&quot; src=&quot;${hostile}/js/player.js?contentId=${vodId}&quot;&gt;&lt;/script&gt;`;
    const posts = {
      author: [
        `[svc_player id="${vodId}" kind="vod" loading="click" title="Seed clip"]`,
        '[svc_uploader]',
        `<svc-player kind="vod" content-id="${vodId}" loading="eager" relay="${hostile}/svc" player-origin="${hostile}" iframe-origins="${hostile}" code="${hostileCode}" nonce="n" onclick="window.__pwned=1" class="hostile"></svc-player>`,
        `<script src="${hostile}/js/evil.js"></script>`,
        `<svc-uploader relay="${hostile}/svc" class="raw-uploader"></svc-uploader>`,
        // Unclosed: the browser makes an element of it all the same.
        '<p>Last words.</p><svc-uploader multiple class="unclosed">',
      ].join('\n\n'),
      admin: [
        `<svc-player class="hostile-relay" content-id="${vodId}" loading="eager" relay="${hostile}/svc"></svc-player>`,
        `<svc-player class="hostile-code" loading="eager" player-origin="${hostile}" code="${hostileCode}"></svc-player>`,
        `<svc-player class="legit" content-id="${vodId}" loading="eager"></svc-player>`,
      ].join('\n\n'),
    };
    writeFileSync(join(work, 'install.php'), installScript(configName, `127.0.0.1:${port}`, posts, secret));
    site = JSON.parse(run('php', [join(work, 'install.php')])) as Installed;
    chmodSync(join(content, 'uploads'), 0o777);

    writeFileSync(join(work, 'apache.conf'), apacheConfig(work, port, relayPort, configName));
    const syntax = spawnSync('/usr/sbin/apache2', ['-t', '-f', join(work, 'apache.conf')], { encoding: 'utf8' });
    assert.equal(syntax.status, 0, `apache2 -t refuses the configuration (docs/deploying.md's block):\n${syntax.stderr}`);
    apache = spawn('/usr/sbin/apache2', ['-f', join(work, 'apache.conf'), '-DFOREGROUND'], { detached: true, stdio: 'ignore' });
    let answered = false;
    for (const deadline = Date.now() + 30_000; !answered && Date.now() < deadline; ) {
      answered = await fetch(`${origin}/svc/healthz`).then((response) => response.ok, () => false);
      if (!answered) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(answered, `Apache did not answer:\n${existsSync(`${work}/apache-error.log`) ? readFileSync(`${work}/apache-error.log`, 'utf8') : ''}`);
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await stopGroup(apache);
    await stopGroup(mariadb);
    removeAll();
    process.off('exit', removeAll);
    await stack?.close();
    attacker?.server.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /**
   * A signed-in page of `user`: the login form's POST to wp-login.php, with the browser's cookies.
   * Not typed into the form: on a busy machine WordPress's login scripts, which are not under test,
   * left the password field empty at times ("The password field is empty", seen in CI).
   */
  async function signIn(user: string, password: string): Promise<Page> {
    const context = await browser!.newContext();
    await context.request.get(`${origin}/wp-login.php`); // its test cookie, which the POST must carry
    const answer = await context.request.post(`${origin}/wp-login.php`, {
      form: { log: user, pwd: password, 'wp-submit': 'Log In', testcookie: '1', redirect_to: `${origin}/wp-admin/` },
      maxRedirects: 0,
    });
    if (answer.status() !== 302) {
      const said = /<div id="login_error"[^>]*>([\s\S]*?)<\/div>/.exec(await answer.text())?.[1]?.replace(/<[^>]+>/g, '').trim();
      throw new Error(`${user} could not sign in (${answer.status()})${said ? `: ${said}` : ''}`);
    }
    return context.newPage();
  }

  test('the author’s hostile markup is stripped on save (KSES), the shortcodes kept', () => {
    assert.equal(site.unfiltered, false, 'authors have no unfiltered_html');
    const saved = site.author_content;
    assert.match(saved, /\[svc_player id="\d+" kind="vod" loading="click"/);
    assert.match(saved, /<svc-player kind="vod" content-id="\d+" loading="eager" class="hostile"><\/svc-player>/, saved);
    for (const gone of ['relay=', 'player-origin', 'iframe-origins', 'code=', 'nonce=', 'onclick', '<script', attacker!.origin]) {
      assert.ok(!saved.includes(gone), `"${gone}" was stripped:\n${saved}`);
    }
    assert.match(saved, /<svc-uploader class="raw-uploader"><\/svc-uploader>/);
    assert.match(saved, /<svc-uploader multiple class="unclosed">/);
  });

  test('the relay URL setting keeps only a path on the site or an http(s) URL (no backslash, protocol-relative, query)', () => {
    assert.deepEqual(site.relay_urls, RELAY_URLS);
  });

  test('an author’s post plays the VOD and uploads a file to "Ready to play" through Apache', async () => {
    const page = await signIn('author', 'author-pass');
    const recorder = await record(page);
    await page.goto(site.author_post);
    // The plugin's module script, with a version, and the relay in the head.
    const script = await page.locator('script[src*="/svc/elements.js"]').first();
    assert.equal(await script.getAttribute('type'), 'module');
    assert.match((await script.getAttribute('src'))!, /\/svc\/elements\.js\?ver=\d/);
    assert.equal(await page.locator('head meta[name="svc-relay"]').getAttribute('content'), '/svc');
    // The session: an HttpOnly svc_token cookie on the relay's path, for this WordPress user.
    const cookie = (await page.context().cookies()).find((c) => c.name === 'svc_token');
    assert.ok(cookie, 'svc_token is set');
    assert.equal(cookie.path, '/svc');
    assert.equal(cookie.httpOnly, true);
    const claims = JSON.parse(Buffer.from(cookie.value.split('.')[1]!, 'base64url').toString()) as { sub: string; exp: number; iat: number };
    assert.equal(claims.sub, String(site.author_id));
    assert.ok(claims.exp - claims.iat <= 600, 'short-lived');

    // Click to play: the service's player loads and its video plays.
    const player = page.locator('svc-player[loading="click"]');
    await player.getByRole('button', { name: 'Play Seed clip' }).click();
    const video = player.locator('video');
    await video.waitFor({ state: 'attached', timeout: 60_000 });
    // Muted, and asked again while paused: a play() the player's own start interrupted must not stall the check.
    await page.waitForFunction(
      (element) => {
        const media = element as HTMLVideoElement;
        media.muted = true;
        if (media.paused) void media.play().catch(() => {});
        return media.currentTime > 0.5;
      },
      await video.elementHandle(),
      { timeout: 60_000, polling: 250 },
    );

    // Upload: signed by the relay through Apache, "ready" pushed by the event stream through Apache.
    const uploader = page.locator('svc-uploader').first();
    await uploader.locator('input[type="file"]').setInputFiles(makeVideo({ seconds: 2, name: 'wordpress-upload.mp4' }));
    const ready = await waitForEvent<{ vodId: string }>(page, 'svc-upload-ready');
    assert.ok(ready.vodId);
    await uploader.getByText('Ready to play', { exact: true }).first().waitFor();
    const errors = (await recorder.events()).filter((event) => event.type === 'svc-error');
    assert.deepEqual(errors, []);

    // The stripped hostile player is an ordinary one now; the raw uploader lost its relay.
    await page.locator('svc-player.hostile[state="ready"]').waitFor();
    assert.equal(await page.locator('svc-player[relay], svc-uploader[relay], [onclick]').count(), 0);
    assert.equal(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned), undefined);
    assert.deepEqual(attacker!.hits, [], 'the attacker got no request');
    await page.context().close();
  });

  test('the event stream flows through Apache as it happens (flushpackets, no gzip), following an upload to ready', { timeout: 60_000 }, async () => {
    const relay = `${origin}/svc`;
    const bearer = { Authorization: `Bearer ${jwt({ sub: 'apache-check', exp: Math.floor(Date.now() / 1000) + 600 }, secret)}` };
    const controller = new AbortController();
    const response = await fetch(`${relay}/events`, {
      headers: { ...bearer, Accept: 'text/event-stream', 'Accept-Encoding': 'gzip, deflate' },
      signal: controller.signal,
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.equal(response.headers.get('content-encoding'), null, 'not compressed (SetEnvIf … no-gzip)');
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    // The stream stays open, so an event that arrives proves that Apache holds nothing back.
    let text = (await reader.read()).value ?? '';
    const { upload_id, vod_id } = await uploadVod(relay, makeVideo({ seconds: 1, name: 'apache-sse.mp4' }), bearer);
    const readyEvent = () =>
      text
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice('data: '.length)) as { upload_id: string; state: string; vod?: { id: string } })
        .find((event) => event.upload_id === upload_id && event.state === 'ready');
    while (!readyEvent()) {
      const { value, done } = await reader.read();
      assert.equal(done, false, `the stream ended before the ready event:\n${text}`);
      text += value;
    }
    assert.equal(readyEvent()!.vod?.id, vod_id);
    controller.abort();
  });

  test('an administrator’s hostile attributes reach the page and are refused by the elements', async () => {
    const page = await signIn('author', 'author-pass');
    const recorder = await record(page);
    await page.goto(site.admin_post);
    await page.locator('svc-player.legit[state="ready"]').waitFor();
    await page.locator('svc-player.hostile-relay[state="error"]').waitFor();
    await page.locator('svc-player.hostile-code[state="error"]').waitFor();
    const codes = (await recorder.events()).filter((event) => event.type === 'svc-error').map((event) => (event.detail as { code: string }).code);
    assert.deepEqual(codes.sort(), ['origin_not_trusted', 'origin_not_trusted']);
    assert.equal(await page.locator(`script[src^="${attacker!.origin}"], iframe[src^="${attacker!.origin}"]`).count(), 0);
    assert.equal(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned), undefined);
    assert.deepEqual(attacker!.hits, [], 'the attacker got no request');
    await page.context().close();
  });

  test('a visitor sees the player, no uploader (closed, unclosed or shortcode) and gets no session', async () => {
    const context = await browser!.newContext();
    const page = await context.newPage();
    await page.goto(site.author_post);
    assert.equal(await page.locator('svc-player').count(), 2);
    assert.equal(await page.locator('svc-uploader').count(), 0, 'neither the shortcode nor a raw tag, closed or not, shows an uploader');
    await page.getByText('Last words.').waitFor();
    assert.equal((await context.cookies()).some((c) => c.name === 'svc_token'), false);
    await context.close();
  });

  test('a signed-in subscriber (no upload_files, no edit_posts) gets no session and no uploader', async () => {
    const page = await signIn('subscriber', 'subscriber-pass');
    await page.goto(site.author_post);
    assert.equal(await page.locator('svc-player').count(), 2);
    assert.equal(await page.locator('svc-uploader').count(), 0, 'no uploader, closed or unclosed');
    assert.equal((await page.context().cookies()).some((c) => c.name === 'svc_token'), false, 'no svc_token for a subscriber');
    await page.context().close();
  });

  test('the settings page never sends the JWT secret back, only that one is set', async () => {
    const page = await signIn('admin', 'admin-pass');
    await page.goto(`${origin}/wp-admin/options-general.php?page=svc-elements`);
    const field = page.locator('input[name="svc_elements_jwt_secret"]');
    assert.equal(await field.inputValue(), '');
    assert.match((await field.getAttribute('placeholder')) ?? '', /A secret is set/);
    assert.ok(!(await page.content()).includes(secret), 'the secret is not in the page');
    await page.context().close();
  });

  test('a client cannot choose its address through Apache (RequestHeader unset X-Forwarded-For)', { timeout: 60_000 }, async () => {
    // Last: it spends the public budget of the address. Each request claims another address, and the
    // relay trusts the proxy's X-Forwarded-For: were the client's value kept, every request would
    // have a budget of its own and none would be limited.
    const statuses: number[] = [];
    for (let batch = 0; batch < (PUBLIC_LIMIT + 50) / 10; batch++) {
      const sent = Array.from({ length: 10 }, (_, i) =>
        fetch(`${origin}/svc/config`, { headers: { 'X-Forwarded-For': `203.0.113.${(batch * 10 + i) % 250}` } }).then((response) => response.status),
      );
      statuses.push(...(await Promise.all(sent)));
    }
    assert.ok(statuses.includes(429), `all ${statuses.length} requests counted against one address: some were limited`);
  });
});
