// Loads the JSON fixtures in testdata/ (real server output, trimmed).
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The testdata folder (tests run from out/test/). */
export const testdata = path.resolve(__dirname, '..', '..', 'testdata');

/** Reads and parses testdata/<name>. */
export function fixture<T>(name: string): T {
  return JSON.parse(fs.readFileSync(path.join(testdata, name), 'utf8')) as T;
}
