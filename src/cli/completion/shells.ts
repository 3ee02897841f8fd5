// The shells `mkt completion` writes a script for: the command's argument, its check and the
// scripts' switch all read this list (the command loads the scripts only when it runs).
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];
