interface YargsInternals {
  getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } };
}

/**
 * yargs renders the whole help of a command once its handler has started, to have it for a later
 * showHelp() (yargs 18, command.js): about 30 ms of every start of the CLI. Nothing here shows
 * help after a handler starts, so a run that does not ask for help skips it. Reaches into yargs'
 * internals (pinned in package.json); should they change, this does nothing and only speed differs.
 */
export function skipHelpCache(parser: object): void {
  const usage = (parser as YargsInternals).getInternalMethods?.().getUsageInstance?.();
  if (usage?.cacheHelpMessage !== undefined) usage.cacheHelpMessage = () => undefined;
}
