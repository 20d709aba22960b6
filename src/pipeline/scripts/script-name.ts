/**
 * A script's name from its file name, on its own so that code naming scripts (the decode
 * workers' pipeline host) does not load the script compiler with it.
 */

/** A script's name from a file name or reference: `nginx.p`, `nginx.js` and `nginx` are `nginx`. */
export function scriptName(file: string): string {
  return file.replace(/\.(p|js)$/, '')
}
