// The relative links of a Markdown text: inline links and images, and reference definitions; not
// URLs with a scheme, mail addresses or anchors within the same page. Anchors and queries dropped.
export function relativeLinks(markdown: string): string[] {
  // Code spans and fenced blocks hold examples, not links.
  const text = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
  const targets = [
    ...[...text.matchAll(/!?\[[^\]]*\]\(\s*(?:<([^>]*)>|([^)\s]+))(?:\s+"[^"]*")?\s*\)/g)].map((match) => (match[1] ?? match[2])!),
    ...[...text.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((match) => match[1]!),
  ];
  return targets
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'))
    .map((target) => decodeURI(target.replace(/[#?].*$/, '')))
    .filter((target) => target !== '');
}
