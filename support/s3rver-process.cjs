/**
 * Runs s3rver (a local S3-compatible server) for the tests: `node --openssl-legacy-provider
 * s3rver-process.cjs <dir> <bucket>` listens on 127.0.0.1 at a free port, creates the bucket
 * and prints {"port":N} on one line. s3rver 3.7 makes ListObjectsV2 continuation tokens with
 * DES, which Node 20's OpenSSL 3 only has in its legacy provider — hence its own process.
 */
const S3rver = require("s3rver");

const [directory, bucket] = process.argv.slice(2);
new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] })
  .run()
  .then(({ port }) => console.log(JSON.stringify({ port })))
  .catch((e) => {
    console.error(e);
    process.exit(1);
  });
process.on("SIGTERM", () => process.exit(0));
// Ends with the test process that started it (its stdin closes).
process.stdin.on("end", () => process.exit(0)).resume();
