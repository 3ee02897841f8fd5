// The shells `mkt completion` writes a script for: the command's argument and the generators' switch
// both read this list (the command loads the generators only when it runs).
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];
