/** The next SIGINT or SIGTERM, for a command that runs until told to stop. */
export function nextSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    // Once: a second Ctrl-C during shutdown gets Node's default and ends the process at once.
    const on = (signal: NodeJS.Signals) => {
      process.off("SIGINT", on);
      process.off("SIGTERM", on);
      resolve(signal);
    };
    process.on("SIGINT", on);
    process.on("SIGTERM", on);
  });
}
