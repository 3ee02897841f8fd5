// The fish script: a shim that hands the words up to the cursor to `mkt __complete` at each Tab and
// prints what it prints (complete.ts) for fish, which takes a tab and a description after each
// candidate and inserts each as data.
export const FISH_SCRIPT = `# fish completion for mkt: each Tab asks \`mkt __complete\` for the candidates and their descriptions.
#   now:     mkt completion fish | source
#   always:  mkt completion fish > ~/.config/fish/completions/mkt.fish

function __mkt_complete
    set -l words (commandline -opc)
    set -l current (commandline -ct)
    set -l mkt $words[1]
    set -e words[1]
    set -l out (command $mkt __complete -- $words "$current" 2>/dev/null)
    test (count $out) -gt 0; or return
    string match -qr -- '^:[0-9]+$' $out[-1]; or return
    set -l directive (string sub -s 2 -- $out[-1])
    set -e out[-1]
    test (math "$directive % 2") -eq 0; or return
    # --format=j: fish completes the whole word, "--format=" and all.
    set -l prefix ''
    if string match -qr -- '^--[^=]+=' $current
        set prefix (string replace -r -- '=.*' '=' $current)
    end
    if test (count $out) -gt 0
        printf '%s\\n' $prefix$out
        # fish adds a space after the only candidate; a list goes on (--fields symbol,bid).
        if test (count $out) -eq 1; and test (math "floor($directive / 2) % 2") -eq 1
            printf '%s\\n' $prefix(string replace -r -- '\\t.*' '' $out),
        end
    else if test (math "floor($directive / 16) % 2") -eq 1
        __fish_complete_directories $current
    else if test (math "floor($directive / 4) % 2") -eq 0
        __fish_complete_path $current
    end
end

# No file names unless mkt asks for them: arguments are symbols, keys, shells.
complete -c mkt -f -a '(__mkt_complete)'
`;
