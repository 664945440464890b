# Prints the completion candidates zsh offers for each line given, one
# "[line] => a b c" row each, by typing the line and Tab into an interactive
# zsh with compinit running in a pseudo-terminal.
# usage: zsh -f zsh-complete.zsh COMPLETION_DIR LINE...
zmodload zsh/zpty zsh/datetime
dir=$1; shift
out=$(mktemp)
zpty z zsh -f -i
zpty -w z "PS1=''; fpath=($dir \$fpath); autoload -Uz compinit; compinit -u -D; unsetopt beep"
zpty -w z "compadd() { local -a reply; builtin compadd -O reply \"\$@\"; (( \$#reply )) && print -rl -- \"\${reply[@]}\" >> $out; builtin compadd \"\$@\"; }"
zpty -w z "_done() { print -r -- '<<done>>' >> $out; }"
for line in "$@"; do
  : > $out
  zpty -w z "comppostfuncs=(_done)"
  sleep 0.2
  : > $out
  zpty -w -n z "$line"$'\t'
  deadline=$(( EPOCHREALTIME + 20 ))
  until grep -q '<<done>>' $out 2>/dev/null || (( EPOCHREALTIME > deadline )); do sleep 0.05; done
  zpty -w -n z $'\C-u'
  print -r -- "[$line] => ${(j: :)${(f)$(grep -v "<<done>>" $out | sort -u)}}"
done
zpty -d z
rm -f $out
