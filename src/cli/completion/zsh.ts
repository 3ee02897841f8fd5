// The zsh script: a shim that hands the words up to the cursor to `mkt __complete` at each Tab and
// gives zsh what it prints (complete.ts), descriptions included. Candidates go to _describe and
// compadd as data (zsh quotes them as it inserts them), never through eval.
export const ZSH_SCRIPT = `#compdef mkt
# zsh completion for mkt: each Tab asks \`mkt __complete\` for the candidates and their descriptions.
#   now:     source <(mkt completion zsh)            (after compinit)
#   always:  mkt completion zsh > "\${fpath[1]}/_mkt"  (any directory in $fpath), then restart zsh

_mkt() {
  local out line value directive
  local -a lines args candidates suffix
  # The words as typed with their quotes removed (never evaluated), the last one up to the cursor.
  args=("\${(@Q)words[2,CURRENT-1]}" "\${(Q)PREFIX}")
  out="$("\${words[1]}" __complete -- "\${args[@]}" 2>/dev/null)"
  lines=("\${(@f)out}")
  directive="\${lines[-1]}"
  [[ "$directive" == :<-> ]] || return 1
  directive="\${directive#:}"
  (( directive & 1 )) && return 1
  for line in "\${(@)lines[1,-2]}"; do
    [[ -n "$line" ]] || continue
    value="\${line%%$'\\t'*}"
    # _describe's name:description, with any ":" in the name escaped.
    if [[ "$line" == *$'\\t'* ]]; then candidates+=("\${value//:/\\\\:}:\${line#*$'\\t'}"); else candidates+=("\${value//:/\\\\:}"); fi
  done
  # --format=j: the candidates are what follows the "=".
  [[ "$PREFIX" == --*=* ]] && compset -P '*='
  (( directive & 2 )) && suffix=(-S '')
  if (( \${#candidates} )); then
    _describe -t mkt 'mkt' candidates "\${suffix[@]}"
  elif (( directive & 16 )); then
    _files -/
  elif (( ! (directive & 4) )); then
    _files
  else
    return 1
  fi
}

# Loaded from $fpath by compinit, the file is the function's body; sourced, it registers itself.
if [[ "\${zsh_eval_context[-1]}" == loadautofunc ]]; then
  _mkt "$@"
else
  compdef _mkt mkt
fi
`;
