// The live board's frame read as a person reads it (test/render/board-fit.test.ts, and the board on a
// real terminal in test/render/narrow-terminal.test.ts): the quotes shown, each with the titles of the
// fields drawn (the columns' titles, or each block's), how many more quotes there are, and the notice
// naming the fields left out, read as one sentence over however many lines it takes.

/** The notice whole: the titles left out and how to see them. */
const NOTICE = /^([A-Z][a-z]+(?:, [A-Z][a-z]+)*) hidden; (?:widen|enlarge) the window or use --fields$/;

export interface BoardFrame {
  /** Each quote shown: its lines, and the titles of the fields drawn for it. */
  shown: Array<{ lines: string[]; titles: string[] }>;
  /** How many quotes the line below them says do not fit; 0 without that line. */
  more: number;
  /** The notice read as one sentence, when there is one. */
  notice: string | undefined;
  noticeLines: string[];
  /** The titles the notice names. */
  named: string[];
}

/** `lines`: a frame without colour, the status line last after a blank line; `titles`: the fields' titles it may show. */
export function readBoardFrame(lines: readonly string[], titles: readonly string[]): BoardFrame {
  // The quotes' part ends where the status line's blank line begins.
  const area = lines.slice(0, lines.lastIndexOf(''));
  let notice: string | undefined;
  let noticeLines: string[] = [];
  for (let count = 1; count <= Math.min(10, area.length) && notice === undefined; count++) {
    const text = area.slice(-count).join(' ');
    if (NOTICE.test(text)) {
      notice = text;
      noticeLines = area.slice(-count);
    }
  }
  const body = area.slice(0, area.length - noticeLines.length);
  const moreLine = /^(?:…|\.\.\.) (\d+) more/.exec(body.at(-1) ?? '');
  const quoteLines = moreLine === null ? body : body.slice(0, -1);
  const shown: BoardFrame['shown'] = [];
  if (quoteLines[0]?.startsWith('Symbol')) {
    const drawn = quoteLines[0].trim().split(/\s+/).filter((title) => titles.includes(title));
    for (const line of quoteLines.slice(1)) shown.push({ lines: [line], titles: drawn });
  } else if (quoteLines.length > 0) {
    const blocks: string[][] = [[]];
    for (const line of quoteLines) if (line === '') blocks.push([]); else blocks.at(-1)!.push(line);
    for (const block of blocks) {
      // `  Bid  1.2`, or the title alone on its line (a value too wide for both) with the value below.
      const drawn = block.slice(1).map((line) => /^ {2}([A-Z][a-z]+) {2,}\S/.exec(line)?.[1] ?? (titles.includes(line) ? line : undefined));
      shown.push({ lines: block, titles: drawn.filter((title): title is string => title !== undefined) });
    }
  }
  return { shown, more: moreLine === null ? 0 : Number(moreLine[1]), notice, noticeLines, named: notice === undefined ? [] : NOTICE.exec(notice)![1]!.split(', ') };
}
