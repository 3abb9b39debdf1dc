//! `sowlang completions SHELL` and `sowlang man [COMMAND]`: shell completions and man pages, both
//! generated from the clap definitions of [`super::Cli`], so they never fall behind the commands.
//! Each prints to stdout, to be redirected where the shell or `man` looks.

use clap::CommandFactory;
use clap_complete::Shell;

use super::Cli;

/// Arguments of `completions`.
#[derive(Debug, clap::Args)]
pub struct CompletionArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    shell: Shell,
}

/// Arguments of `man`.
#[derive(Debug, clap::Args)]
pub struct ManArgs {
    /// A command whose own page to print (`sowlang-analyze(1)`); without it, `sowlang(1)`.
    command: Option<String>,
}

/// Runs `completions`.
pub fn completions(args: CompletionArgs) -> u8 {
    let mut cmd = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "sowlang", &mut script);
    super::out(&String::from_utf8_lossy(&script));
    0
}

/// Runs `man`.
pub fn man(args: ManArgs) -> u8 {
    let mut cmd = Cli::command();
    // Subcommands' pages are named `sowlang-NAME`, as `man` expects for `sowlang NAME`.
    cmd.build();
    let page = match &args.command {
        None => cmd,
        Some(name) => match cmd.find_subcommand(name) {
            Some(sub) => {
                let sub = sub.clone();
                let full = format!("sowlang-{}", sub.get_name());
                sub.display_name(full.clone()).bin_name(full).version(env!("CARGO_PKG_VERSION"))
            }
            None => {
                // A usage error, reported the way clap reports the others.
                let names: Vec<String> = cmd.get_subcommands().map(|c| c.get_name().to_string()).collect();
                let e = cmd.error(
                    clap::error::ErrorKind::InvalidValue,
                    format!("there is no command `{name}`; the commands are {}", names.join(", ")),
                );
                let _ = e.print();
                return 2;
            }
        },
    };
    let mut text = Vec::new();
    clap_mangen::Man::new(page)
        .render(&mut text)
        .expect("writing into memory cannot fail");
    super::out(&String::from_utf8_lossy(&text));
    0
}
