// Every script of this project runs on Node 24 (type stripping, node:sqlite). The root
// devDependency `node` provides it through node_modules/.bin; a shell's own older Node
// would fail later with an obscure syntax error, so stop here with a clear one.
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  console.error(
    `Review Desk needs Node 24 or newer; this is Node ${process.versions.node} (${process.execPath}).\n` +
      'Run scripts through npm (npm start, npm test, npm run …) so node_modules/.bin/node is used, after `npm ci`.',
  );
  process.exit(1);
}
