/** The command line of a benchmark whose server runs in a child process: `--seed-only <dir>` seeds, anything else measures. */
export function runBench(main: () => Promise<void>, seedOnly: (dir: string) => Promise<void>) {
  const run = process.argv[2] === "--seed-only" ? seedOnly(process.argv[3]) : main();
  run.catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
