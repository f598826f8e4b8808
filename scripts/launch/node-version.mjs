// The Node.js line the site supports. Node.js 20 reached its end of life on 2026-04-30 and
// receives no security fixes; React Router 8 needs 22.22 or later; the site is built and tested
// on 26 (docs/decisions/0036-node-26.md). Every way of starting the site (npm start, npm run
// serve, npm run dev, the container) asks this first, so an old runtime is named at once instead
// of failing later on a missing language feature.
export const SUPPORTED_NODE_MAJOR = 26;

/** The refusal for a runtime older than the supported line, or null when this one will do. */
export function unsupportedNodeMessage(version = process.versions.node) {
  const major = Number(version.split(".")[0]);
  if (major >= SUPPORTED_NODE_MAJOR) return null;
  return (
    `Hopewell needs Node.js ${SUPPORTED_NODE_MAJOR} or later; this is Node.js ${version}, which receives no security fixes. ` +
    `Install Node.js ${SUPPORTED_NODE_MAJOR} as docs/operators.md says under "Upgrading".`
  );
}

/** Stops this process with the refusal when the runtime is too old. */
export function refuseUnsupportedNode() {
  const message = unsupportedNodeMessage();
  if (message === null) return;
  console.error(message);
  process.exit(1);
}
