import { Argument, type Command } from 'commander';
import { examples } from '../command-kit';

/** `arrgo completion bash|zsh|fish`: a completion script built from the command tree itself. */
export function registerCompletionCommand(program: Command): void {
  examples(
    program
      .command('completion')
      .description('Print a shell completion script for commands and options')
      .addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh', 'fish']))
      .action((shell: 'bash' | 'zsh' | 'fish') => {
        const tree = commandTree(program);
        process.stdout.write(shell === 'fish' ? fishScript(tree) : shell === 'zsh' ? `#compdef arrgo\nautoload -U +X bashcompinit && bashcompinit\n${bashScript(tree)}` : bashScript(tree));
      }),
    'arrgo completion bash > ~/.local/share/bash-completion/completions/arrgo',
    'arrgo completion zsh > "${fpath[1]}/_arrgo"',
    'arrgo completion fish > ~/.config/fish/completions/arrgo.fish',
  );
}

interface Node {
  /** The words that lead here: [] for arrgo itself, ['rollout', 'watch'] for `arrgo rollout watch`. */
  path: string[];
  description: string;
  options: string[];
  children: Node[];
}

function commandTree(command: Command, path: string[] = []): Node {
  return {
    path,
    description: command.description(),
    options: [...command.options.map((o) => o.long).filter((o): o is string => Boolean(o)), '--help'],
    children: command.commands.map((child) => commandTree(child, [...path, child.name()])),
  };
}

function nodes(tree: Node): Node[] {
  return [tree, ...tree.children.flatMap(nodes)];
}

function bashScript(tree: Node): string {
  const all = nodes(tree);
  const steps = all.filter((n) => n.path.length > 0).map((n) => `      "${n.path.slice(0, -1).join(' ')}:${n.path.at(-1)}") node="${n.path.join(' ')}" ;;`);
  const words = all.map((n) => `    "${n.path.join(' ')}") words="${[...n.children.map((c) => c.path.at(-1)), ...n.options, ...(n.path.length > 0 ? tree.options : [])].join(' ')}" ;;`);
  return [
    '# arrgo completion for bash (arrgo completion bash)',
    '_arrgo() {',
    '  local cur="${COMP_WORDS[COMP_CWORD]}" node="" words="" w',
    '  for w in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do',
    '    case "$node:$w" in',
    ...steps,
    '    esac',
    '  done',
    '  case "$node" in',
    ...words,
    '  esac',
    '  COMPREPLY=($(compgen -W "$words" -- "$cur"))',
    '}',
    'complete -F _arrgo arrgo',
    '',
  ].join('\n');
}

function fishScript(tree: Node): string {
  const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const lines = ['# arrgo completion for fish (arrgo completion fish)', 'complete -c arrgo -f'];
  for (const option of tree.options) lines.push(`complete -c arrgo -l ${option.slice(2)}`);
  for (const node of nodes(tree)) {
    const here = node.path.length === 0 ? '__fish_use_subcommand' : `__fish_seen_subcommand_from ${node.path.at(-1)}`;
    const siblings = node.children.map((c) => c.path.at(-1)).join(' ');
    for (const child of node.children) {
      const condition = node.path.length === 0 ? here : `${here}; and not __fish_seen_subcommand_from ${siblings}`;
      lines.push(`complete -c arrgo -n ${quote(condition)} -a ${child.path.at(-1)} -d ${quote(child.description.split(/[.:(]/)[0].trim())}`);
    }
    if (node.path.length > 0) for (const option of node.options) lines.push(`complete -c arrgo -n ${quote(here)} -l ${option.slice(2)}`);
  }
  return `${lines.join('\n')}\n`;
}
