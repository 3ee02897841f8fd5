// `--exec PROGRAM -- ARG...`: the program's own arguments are the words after `--`, so none of them
// is read as one of mkt's flags or symbols, and nothing from the data ever joins them.
//
// Only when --exec comes before the first `--` (as `--exec PROGRAM` or `--exec=PROGRAM`): then every
// word after that `--` is the program's, and the symbols come before it:
//
//   mkt quotes EURUSD --watch --until 'EURUSD.bid > 1.09' --exec notify-send -- 'EURUSD' 'above 1.09'
//
// Without --exec, `--` keeps its usual meaning (what follows is arguments, not flags: symbols).
// The split is made on the words as typed, before commander reads them: commander hands a command
// the words after `--` among its arguments, with nothing to tell them from the symbols.

export interface SplitArgs {
  /** What commander parses: everything before the `--` that ends the program's flags. */
  argv: string[];
  /** The program's arguments (none without a `--`); undefined when no --exec comes before a `--`. */
  programArgs: string[] | undefined;
}

export function splitProgramArgs(argv: readonly string[]): SplitArgs {
  let exec = false;
  for (let index = 0; index < argv.length; index++) {
    const word = argv[index]!;
    if (word === '--') {
      if (!exec) break;
      return { argv: argv.slice(0, index), programArgs: argv.slice(index + 1) };
    }
    if (word === '--exec') {
      exec = true;
      // The next word is the program, unless it is the `--` itself: commander then says the program is missing.
      if (argv[index + 1] !== '--') index++;
    } else if (word.startsWith('--exec=')) {
      exec = true;
    }
  }
  return { argv: [...argv], programArgs: exec ? [] : undefined };
}
