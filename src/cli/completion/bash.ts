// The bash script: a shim that hands the words up to the cursor to `mkt __complete` at each Tab and
// fills COMPREPLY with what it prints (complete.ts). Plain bash 3.2 (macOS), no bash-completion
// package. Candidates are data, never code: read a line at a time into COMPREPLY, never through
// `compgen -W` (which expands `$(...)`) or an unquoted `$(...)` (which splits and globs). When mkt
// prints nothing or fails there is nothing to offer, and its stderr never reaches the prompt.
export const BASH_SCRIPT = `# bash completion for mkt: each Tab asks \`mkt __complete\` for the candidates.
#   now:     source <(mkt completion bash)
#   always:  mkt completion bash > ~/.local/share/bash-completion/completions/mkt
#            (or add the first line to ~/.bashrc)

_mkt_completion() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prefix="" word line out directive i
  local -a words
  words=()
  # bash splits --format=json at the "=" (COMP_WORDBREAKS): mkt gets it as one word.
  for ((i = 1; i <= COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    if ((\${#words[@]} > 0)) && [[ "$word" == "=" || "\${COMP_WORDS[i-1]}" == "=" ]] && [[ "\${words[\${#words[@]}-1]}" == --* ]]; then
      words[\${#words[@]}-1]+="$word"
    else
      words+=("$word")
    fi
  done
  # What bash replaces: the part after the "=" when bash split the word there, else the whole word.
  if [[ "$cur" == "=" ]]; then
    cur=""
  elif [[ "$cur" == --*=* ]]; then
    prefix="\${cur%%=*}="
    cur="\${cur#*=}"
  fi
  COMPREPLY=()
  out="$("\${COMP_WORDS[0]}" __complete -- "\${words[@]}" 2>/dev/null)"
  directive="\${out##*$'\\n'}"
  [[ "$directive" =~ ^:[0-9]+$ ]] || return 0
  directive="\${directive#:}"
  if [[ "$out" == *$'\\n'* ]]; then out="\${out%$'\\n'*}"; else out=""; fi
  if ((directive & 1)); then return 0; fi
  while IFS= read -r line; do
    line="\${line%%$'\\t'*}"
    if [[ -n "$line" && "$line" == "$cur"* ]]; then COMPREPLY+=("$prefix$line"); fi
  done <<< "$out"
  if ((directive & 2)); then compopt -o nospace 2>/dev/null; fi
  if ((\${#COMPREPLY[@]} == 0 && !(directive & 4))); then
    # File or directory names: compgen matches the typed word as it is (nothing in it is expanded).
    compopt -o filenames 2>/dev/null
    if ((directive & 16)); then out="$(compgen -d -- "$cur")"; else out="$(compgen -f -- "$cur")"; fi
    while IFS= read -r line; do
      if [[ -n "$line" ]]; then COMPREPLY+=("$prefix$line"); fi
    done <<< "$out"
  fi
  return 0
}

complete -F _mkt_completion mkt
`;
