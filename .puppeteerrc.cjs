/* global module */
// Puppeteer drives the installed Firefox for the browser tests (test/support/browsers/firefox.ts);
// it must never download a browser of its own at `npm install` (no such download is possible here,
// and none is needed).
module.exports = { skipDownload: true, chrome: { skipDownload: true }, firefox: { skipDownload: true }, 'chrome-headless-shell': { skipDownload: true } };
