#!/usr/bin/env node
// Rebuilds the native modules (keytar, better-sqlite3) for the installed Electron (npm start runs
// this first).
// Uses npm's bundled node-gyp with Electron's headers, which needs internet access to
// electronjs.org once; skipped with a message when the Electron binary is not installed.
const { execSync } = require('node:child_process');
const { readFileSync, existsSync } = require('node:fs');
const { join } = require('node:path');

const electronDir = join(__dirname, '..', 'node_modules', 'electron');
if (!existsSync(join(electronDir, 'path.txt'))) {
  console.error('Electron is not installed (its binary download was skipped or failed).');
  console.error('Voice Review needs Node.js 22.12 or later to install Electron 45: run "npm ci" again with it.');
  process.exit(1);
}
const version = JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8')).version;
console.log(`Rebuilding keytar and better-sqlite3 for Electron ${version}…`);
execSync('npm rebuild keytar better-sqlite3 --build-from-source', {
  stdio: 'inherit',
  env: {
    ...process.env,
    npm_config_runtime: 'electron',
    npm_config_target: version,
    npm_config_disturl: 'https://electronjs.org/headers',
    npm_config_nodedir: '',
  },
});
