// Which build of the elements a browser test page runs (web-test-runner.config.mjs names it in the
// page's head): the source define modules ('bundler') or the built loader /svc/elements.js and the
// files beside it ('script-tag', see script-tag.ts). For the few assertions about file names.
export type ElementPath = 'bundler' | 'script-tag';

export const elementPath = document.querySelector('meta[name="svc-test-path"]')!.getAttribute('content') as ElementPath;
